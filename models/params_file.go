package models

import (
	"encoding/json"
	"fmt"

	"github.com/attend-go/attend/models/safetensors"
)

// Tensors returns the parameters' values as float32 file tensors, in
// creation order, sharing no memory with the store.
func (ps *Params) Tensors() []safetensors.Tensor {
	out := make([]safetensors.Tensor, 0, len(ps.list))
	for _, p := range ps.list {
		t := safetensors.Tensor{Name: p.Name, Shape: append([]int(nil), p.Shape()...), Data: make([]float32, p.Size())}
		switch d := p.Value.Data().(type) {
		case []float32:
			copy(t.Data, d)
		case []float64:
			for i, v := range d {
				t.Data[i] = float32(v)
			}
		}
		out = append(out, t)
	}
	return out
}

// NewFile returns a model file holding the parameters, ready for WriteFile:
// kind names the model ("asr", "caption", ...), config is marshalled to
// JSON, vocab is the model's vocabulary.
func (ps *Params) NewFile(kind string, config any, vocab []string) (*safetensors.File, error) {
	cfg, err := json.Marshal(config)
	if err != nil {
		return nil, fmt.Errorf("models: encoding %s config: %w", kind, err)
	}
	return &safetensors.File{Kind: kind, FormatVersion: safetensors.FormatVersion, Config: cfg, Vocab: vocab, Tensors: ps.Tensors()}, nil
}

// Load copies a file's tensors into the parameters. The file must hold
// exactly the store's parameter names, each with the parameter's shape;
// anything else is an error naming the file and the tensor.
func (ps *Params) Load(f *safetensors.File) error {
	if err := f.CheckNames(ps.Names()); err != nil {
		return err
	}
	for _, p := range ps.list {
		data, err := f.Expect(p.Name, p.Shape()...)
		if err != nil {
			return err
		}
		switch d := p.Value.Data().(type) {
		case []float32:
			copy(d, data)
		case []float64:
			for i, v := range data {
				d[i] = float64(v)
			}
		}
	}
	return nil
}
