package models

import "github.com/attend-go/attend/models/safetensors"

// The optimizer tensors a training checkpoint holds besides the model's
// own: adam.m/NAME and adam.v/NAME, the first and second moments of
// parameter NAME (safetensors.IsOptimizerTensor knows them too).
const (
	adamMPrefix = safetensors.AdamMPrefix
	adamVPrefix = safetensors.AdamVPrefix
)

// AppendTensors appends the optimizer's moments to f as float32 tensors
// adam.m/NAME and adam.v/NAME, one pair per parameter, so that a training
// checkpoint resumes exactly (LoadTensors). They share the optimizer's
// buffers; write f before the next Step.
func (a *Adam) AppendTensors(f *safetensors.File) {
	for i, p := range a.ps.All() {
		f.Tensors = append(f.Tensors,
			safetensors.Tensor{Name: adamMPrefix + p.Name, Shape: p.Shape(), Data: a.m[i].F32},
			safetensors.Tensor{Name: adamVPrefix + p.Name, Shape: p.Shape(), Data: a.v[i].F32})
	}
}

// LoadTensors restores the moments that AppendTensors wrote to f, each
// checked against its parameter's shape, and the step count.
func (a *Adam) LoadTensors(f *safetensors.File, step int) error {
	var ms, vs []*Moment
	for _, p := range a.ps.All() {
		m, err := f.Expect(adamMPrefix+p.Name, p.Shape()...)
		if err != nil {
			return err
		}
		v, err := f.Expect(adamVPrefix+p.Name, p.Shape()...)
		if err != nil {
			return err
		}
		ms, vs = append(ms, &Moment{F32: m}), append(vs, &Moment{F32: v})
	}
	return a.SetState(step, ms, vs)
}

// WithoutOptimizer returns f without the optimizer tensors AppendTensors
// adds: the model alone, for loading a training checkpoint as a model. It
// shares f's tensors.
func WithoutOptimizer(f *safetensors.File) *safetensors.File {
	own := &safetensors.File{Kind: f.Kind, FormatVersion: f.FormatVersion, Config: f.Config, Vocab: f.Vocab, Source: f.Source}
	for _, t := range f.Tensors {
		if !safetensors.IsOptimizerTensor(t.Name) {
			own.Tensors = append(own.Tensors, t)
		}
	}
	return own
}
