package safetensors

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
)

// Averaging checkpoints: the element-wise mean of the weights of N model
// files of one training run,
//
//	θ̄ = (θ₁ + θ₂ + … + θ_N) / N,
//
// is a cheap way to a model often better than any one of them (not
// always: on the default caption model it was not, on the ASR model it
// was; score it on dev):
// Vaswani et al. (2017, "Attention is all you need", §6.1) average the
// last 5 or 20 checkpoints; Izmailov et al. (2018, "Averaging weights
// leads to wider optima and better generalization") average snapshots
// along the tail of a run (stochastic weight averaging); ESPnet's
// average_checkpoints averages the N best on dev. Every file must hold
// the same network: the same kind, config, vocabulary, tensor names and
// shapes. The mean is only meaningful for snapshots of one run (or of
// runs started from one model): two independently trained networks are
// not aligned unit for unit.

// AveragedFromKey is the __metadata__ entry an average records its
// inputs in: a JSON array of their Source names (file N, counting from 1,
// for a file without one), in the order they were added.
const AveragedFromKey = "attend.averaged_from"

// ErrNotFinite means a weight is NaN or infinite, as after a run
// diverged: averaging it would carry the NaN into the result.
var ErrNotFinite = errors.New("models: weight is not finite")

// An Averager accumulates the element-wise mean of the weights of model
// files added one at a time, so that averaging N checkpoints holds one
// file and a float64 sum in memory rather than all N files. The zero
// value is ready to use.
//
// Optimizer tensors (adam.m/… and adam.v/…, see Adam.AppendTensors) are
// ignored: the mean of the moments of different steps resumes nothing.
// Of the other metadata (Extra), the result keeps the entries that every
// file has with the same value, such as the features a caption decoder
// was trained on, and drops those that differ, such as the training
// position of checkpoints; it adds AveragedFromKey.
type Averager struct {
	first   *File             // the first file's metadata; Tensors nil
	config  any               // first.Config decoded, for comparing
	tensors []Tensor          // names and shapes, in the first file's order; Data nil
	index   map[string]int    // tensor name → position in tensors and sums
	sums    [][]float64       // the running sums
	extra   map[string]string // the Extra entries every file so far agrees on
	sources []string          // the files added, named for AveragedFromKey
}

// Add adds the weights of f to the average. Against the first file added,
// f must have the same kind (else ErrKind), config, vocabulary, tensor
// names and shapes (else ErrMismatch); every weight must be finite (else
// ErrNotFinite). Errors name f by its Source and the field or tensor.
// On an error the average is unchanged.
func (a *Averager) Add(f *File) error {
	own, err := modelTensors(f)
	if err != nil {
		return err
	}
	if a.first == nil {
		return a.start(f, own)
	}
	if err := a.compare(f, own); err != nil {
		return err
	}
	for _, t := range own {
		sum := a.sums[a.index[t.Name]]
		for i, v := range t.Data {
			sum[i] += float64(v)
		}
	}
	for k, v := range a.extra {
		if w, ok := f.Extra[k]; !ok || w != v {
			delete(a.extra, k)
		}
	}
	a.sources = append(a.sources, a.sourceName(f))
	return nil
}

// start makes f, whose model tensors are own, the first file.
func (a *Averager) start(f *File, own []Tensor) error {
	config, err := decodeConfig(f)
	if err != nil {
		return err
	}
	a.first = &File{Kind: f.Kind, Config: slices.Clone(f.Config), Vocab: slices.Clone(f.Vocab), Source: f.Source}
	a.config = config
	a.index = make(map[string]int, len(own))
	a.tensors = make([]Tensor, len(own))
	a.sums = make([][]float64, len(own))
	for i, t := range own {
		a.index[t.Name] = i
		a.tensors[i] = Tensor{Name: t.Name, Shape: slices.Clone(t.Shape)}
		a.sums[i] = make([]float64, len(t.Data))
		for j, v := range t.Data {
			a.sums[i][j] = float64(v)
		}
	}
	a.extra = maps.Clone(f.Extra)
	a.sources = []string{a.sourceName(f)}
	return nil
}

// sourceName names f, the next file added, in AveragedFromKey.
func (a *Averager) sourceName(f *File) string {
	if f.Source != "" {
		return f.Source
	}
	return fmt.Sprintf("file %d", len(a.sources)+1)
}

// Len returns the number of files added.
func (a *Averager) Len() int { return len(a.sources) }

// File returns the average of the files added so far: the first file's
// kind, config and vocabulary, the mean of every weight (summed in
// float64, rounded once to float32), the Extra entries all files agree
// on and AveragedFromKey. It shares no memory with the inputs or the
// Averager, which can go on adding.
func (a *Averager) File() (*File, error) {
	if a.first == nil {
		return nil, errors.New("models: averaging no files")
	}
	from, err := json.Marshal(a.sources)
	if err != nil {
		return nil, fmt.Errorf("models: encoding %s: %w", AveragedFromKey, err)
	}
	extra := maps.Clone(a.extra)
	if extra == nil {
		extra = make(map[string]string, 1)
	}
	extra[AveragedFromKey] = string(from)
	out := &File{
		Kind:          a.first.Kind,
		FormatVersion: FormatVersion,
		Config:        slices.Clone(a.first.Config),
		Vocab:         slices.Clone(a.first.Vocab),
		Extra:         extra,
		Tensors:       make([]Tensor, len(a.tensors)),
	}
	n := float64(len(a.sources))
	for i, t := range a.tensors {
		data := make([]float32, len(a.sums[i]))
		for j, s := range a.sums[i] {
			data[j] = float32(s / n)
		}
		out.Tensors[i] = Tensor{Name: t.Name, Shape: slices.Clone(t.Shape), Data: data}
	}
	return out, nil
}

// Average returns the element-wise mean of the weights of files, as an
// Averager adding them in order returns it. Averaging one file returns
// its weights unchanged, without its optimizer state.
func Average(files []*File) (*File, error) {
	var a Averager
	for _, f := range files {
		if err := a.Add(f); err != nil {
			return nil, err
		}
	}
	return a.File()
}

// modelTensors returns the tensors of f without the optimizer's, after
// checking that their names are unique, their shapes match their data
// and their values are finite.
func modelTensors(f *File) ([]Tensor, error) {
	own := make([]Tensor, 0, len(f.Tensors))
	seen := make(map[string]bool, len(f.Tensors))
	for _, t := range f.Tensors {
		if IsOptimizerTensor(t.Name) {
			continue
		}
		if seen[t.Name] {
			return nil, fileErrorf(f.Source, ErrMismatch, "two tensors are called %q", t.Name)
		}
		seen[t.Name] = true
		if n, ok := numElements(t.Shape); !ok || int64(len(t.Data)) != n {
			return nil, fileErrorf(f.Source, ErrMismatch, "tensor %q holds %d values, shape %v needs %d", t.Name, len(t.Data), t.Shape, n)
		}
		for i, v := range t.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return nil, fileErrorf(f.Source, ErrNotFinite, "tensor %q has the value %g at index %d", t.Name, v, i)
			}
		}
		own = append(own, t)
	}
	return own, nil
}
