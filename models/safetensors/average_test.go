package safetensors_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// snapshot returns a small model file named source whose weights are the
// base values plus offset, with optimizer moments and a training
// position, as a training checkpoint has them.
func snapshot(source string, offset float32) *safetensors.File {
	add := func(vs ...float32) []float32 {
		out := make([]float32, len(vs))
		for i, v := range vs {
			out[i] = v + offset
		}
		return out
	}
	return &safetensors.File{
		Kind:   "asr",
		Config: json.RawMessage(`{"hidden":2,"seed":18446744073709551615}`),
		Vocab:  []string{"<eos>", "a", "b"},
		Extra:  map[string]string{"attend.features": "grid 7x7", "attend.train": fmt.Sprintf(`{"step":%g}`, offset)},
		Source: source,
		Tensors: []safetensors.Tensor{
			{Name: "out.w", Shape: []int{3, 2}, Data: add(0.5, -1, 2, 0, 0.25, 3)},
			{Name: "adam.m/out.w", Shape: []int{3, 2}, Data: add(9, 9, 9, 9, 9, 9)},
			{Name: "out.b", Shape: []int{3}, Data: add(0, 1, -2)},
			{Name: "adam.v/out.w", Shape: []int{3, 2}, Data: add(9, 9, 9, 9, 9, 9)},
			{Name: "scale", Shape: []int{}, Data: add(1)},
		},
	}
}

// modelData returns the values of f's tensors that are not optimizer
// state, by name.
func modelData(f *safetensors.File) map[string][]float32 {
	out := map[string][]float32{}
	for _, t := range f.Tensors {
		if !safetensors.IsOptimizerTensor(t.Name) {
			out[t.Name] = t.Data
		}
	}
	return out
}

func TestAverage(t *testing.T) {
	tests := []struct {
		name  string
		files []*safetensors.File
		want  map[string][]float32 // the tensors of the average
		extra map[string]string    // its Extra
	}{
		{
			name:  "three files",
			files: []*safetensors.File{snapshot("a", 1), snapshot("b", 2), snapshot("c", 6)},
			want:  map[string][]float32{"out.w": {3.5, 2, 5, 3, 3.25, 6}, "out.b": {3, 4, 1}, "scale": {4}},
			extra: map[string]string{"attend.features": "grid 7x7", safetensors.AveragedFromKey: `["a","b","c"]`},
		},
		{
			name:  "one file",
			files: []*safetensors.File{snapshot("a", 0.1)},
			want:  modelData(snapshot("a", 0.1)),
			extra: map[string]string{"attend.features": "grid 7x7", "attend.train": `{"step":0.1}`, safetensors.AveragedFromKey: `["a"]`},
		},
		{
			name: "unnamed files, no extra",
			files: func() []*safetensors.File {
				a, b := snapshot("", 0), snapshot("", 2)
				a.Extra, b.Extra = nil, nil
				return []*safetensors.File{a, b}
			}(),
			want:  map[string][]float32{"out.w": {1.5, 0, 3, 1, 1.25, 4}, "out.b": {1, 2, -1}, "scale": {2}},
			extra: map[string]string{safetensors.AveragedFromKey: `["file 1","file 2"]`},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := safetensors.Average(tc.files)
			if err != nil {
				t.Fatal(err)
			}
			first := tc.files[0]
			if got.Kind != first.Kind || string(got.Config) != string(first.Config) || !slices.Equal(got.Vocab, first.Vocab) || got.Source != "" {
				t.Errorf("kind %q, config %s, vocab %q, source %q; want the first file's, no source", got.Kind, got.Config, got.Vocab, got.Source)
			}
			if !maps.Equal(got.Extra, tc.extra) {
				t.Errorf("Extra %q, want %q", got.Extra, tc.extra)
			}
			if len(got.Tensors) != len(tc.want) {
				t.Errorf("%d tensors, want %d (no optimizer state)", len(got.Tensors), len(tc.want))
			}
			for _, tensor := range got.Tensors {
				if want, ok := tc.want[tensor.Name]; !ok || !slices.Equal(tensor.Data, want) {
					t.Errorf("tensor %q = %v, want %v", tensor.Name, tensor.Data, want)
				}
				if in, _ := first.Tensor(tensor.Name); !slices.Equal(tensor.Shape, in.Shape) {
					t.Errorf("tensor %q has shape %v, want %v", tensor.Name, tensor.Shape, in.Shape)
				}
			}
			back, err := safetensors.Parse(encodeModel(t, got, safetensors.F32))
			if err != nil {
				t.Fatalf("the average does not round-trip: %v", err)
			}
			if !maps.Equal(back.Extra, tc.extra) {
				t.Errorf("written and read, Extra %q, want %q", back.Extra, tc.extra)
			}
		})
	}
}

// TestAverageMismatch gives Average a second file that differs from the
// first: the error names the file and what differs.
func TestAverageMismatch(t *testing.T) {
	config := func(js string) func(*safetensors.File) {
		return func(f *safetensors.File) { f.Config = json.RawMessage(js) }
	}
	tests := []struct {
		name string
		edit func(f *safetensors.File)
		is   error
		want string
	}{
		{"kind", func(f *safetensors.File) { f.Kind = "caption" }, safetensors.ErrKind, `b.safetensors: kind "caption", but a.safetensors is "asr"`},
		{"config value", config(`{"hidden":3,"seed":18446744073709551615}`), safetensors.ErrMismatch,
			`b.safetensors: config differs from a.safetensors: "hidden" is 3 (2 there)`},
		{"config seed", config(`{"hidden":2,"seed":18446744073709551614}`), safetensors.ErrMismatch,
			`"seed" is 18446744073709551614 (18446744073709551615 there)`},
		{"config field", config(`{"seed":18446744073709551615,"hidden":2,"dropout":0.5}`), safetensors.ErrMismatch,
			`"dropout" is 0.5 (absent there)`},
		{"config missing field", config(`{"seed":18446744073709551615}`), safetensors.ErrMismatch,
			`no "hidden" (2 there)`},
		{"config not an object", config(`[1]`), safetensors.ErrMismatch, `config differs from a.safetensors: [1] ({`},
		{"config not JSON", config(`{`), safetensors.ErrCorrupt, `b.safetensors: config is not valid JSON`},
		{"vocab token", func(f *safetensors.File) { f.Vocab = []string{"<eos>", "a", "c"} }, safetensors.ErrMismatch, `vocabulary differs from a.safetensors: token 2 is "c" ("b" there)`},
		{"vocab size", func(f *safetensors.File) { f.Vocab = f.Vocab[:2] }, safetensors.ErrMismatch, `vocabulary differs from a.safetensors: 2 tokens (3 there)`},
		{"shape", func(f *safetensors.File) { f.Tensors[0].Shape = []int{2, 3} }, safetensors.ErrMismatch, `b.safetensors: tensor "out.w" has shape [2 3], a.safetensors has [3 2]`},
		{"missing tensor", func(f *safetensors.File) { f.Tensors = f.Tensors[:4] }, safetensors.ErrMismatch, `b.safetensors: tensors differ from a.safetensors: missing "scale"`},
		{"renamed tensor", func(f *safetensors.File) { f.Tensors[2].Name = "out.bias" }, safetensors.ErrMismatch, `missing "out.b"; unexpected "out.bias"`},
		{"duplicate tensor", func(f *safetensors.File) { f.Tensors[2].Name = "out.w" }, safetensors.ErrMismatch, `b.safetensors: two tensors are called "out.w"`},
		{"data size", func(f *safetensors.File) { f.Tensors[2].Data = f.Tensors[2].Data[:2] }, safetensors.ErrMismatch, `tensor "out.b" holds 2 values, shape [3] needs 3`},
		{"NaN", func(f *safetensors.File) { f.Tensors[2].Data[1] = float32(math.NaN()) }, safetensors.ErrNotFinite, `b.safetensors: tensor "out.b" has the value NaN at index 1`},
		{"Inf", func(f *safetensors.File) { f.Tensors[4].Data[0] = float32(math.Inf(-1)) }, safetensors.ErrNotFinite, `tensor "scale" has the value -Inf at index 0`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var a safetensors.Averager
			if err := a.Add(snapshot("a.safetensors", 0)); err != nil {
				t.Fatal(err)
			}
			before, err := a.File()
			if err != nil {
				t.Fatal(err)
			}
			b := snapshot("b.safetensors", 1)
			tc.edit(b)
			err = a.Add(b)
			if !errors.Is(err, tc.is) {
				t.Fatalf("error %v, want one wrapping %v", err, tc.is)
			}
			if !strings.HasPrefix(err.Error(), "models: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q lacks %q", err, tc.want)
			}
			after, err := a.File()
			if err != nil {
				t.Fatal(err)
			}
			if a.Len() != 1 || !slices.EqualFunc(before.Tensors, after.Tensors, func(x, y safetensors.Tensor) bool { return slices.Equal(x.Data, y.Data) }) {
				t.Errorf("a failed Add changed the average (%d files)", a.Len())
			}
			if _, err := safetensors.Average([]*safetensors.File{snapshot("a.safetensors", 0), b}); !errors.Is(err, tc.is) {
				t.Errorf("Average: error %v, want one wrapping %v", err, tc.is)
			}
		})
	}
}

// TestAverageFirstFileChecked checks the first file's tensors as the
// others'.
func TestAverageFirstFileChecked(t *testing.T) {
	f := snapshot("a.safetensors", 0)
	f.Tensors[0].Data[3] = float32(math.Inf(1))
	if _, err := safetensors.Average([]*safetensors.File{f, snapshot("b.safetensors", 0)}); !errors.Is(err, safetensors.ErrNotFinite) || !strings.Contains(err.Error(), "a.safetensors") {
		t.Errorf("error %v, want ErrNotFinite naming a.safetensors", err)
	}
}

func TestAverageNoFiles(t *testing.T) {
	if _, err := safetensors.Average(nil); err == nil || !strings.Contains(err.Error(), "no files") {
		t.Errorf("error %v, want one saying there are no files", err)
	}
}

// TestAverageFloat16 averages files stored as float16 and float32, as a
// shipped model and a training snapshot are.
func TestAverageFloat16(t *testing.T) {
	var files []*safetensors.File
	for i, dtype := range []safetensors.DType{safetensors.F16, safetensors.F32, safetensors.F16} {
		f, err := safetensors.Parse(encodeModel(t, snapshot("", float32(i)), dtype))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	got, err := safetensors.Average(files)
	if err != nil {
		t.Fatal(err)
	}
	// Every value is a small multiple of 1/4 plus an integer: exact as a
	// half, and so is the mean.
	want := map[string][]float32{"out.w": {1.5, 0, 3, 1, 1.25, 4}, "out.b": {1, 2, -1}, "scale": {2}}
	for _, tensor := range got.Tensors {
		if !slices.Equal(tensor.Data, want[tensor.Name]) {
			t.Errorf("tensor %q = %v, want %v", tensor.Name, tensor.Data, want[tensor.Name])
		}
	}
}

// TestAverageFloat64Sum checks that the sum is kept in float64, where
// float32 would round away small weights added to a large one.
func TestAverageFloat64Sum(t *testing.T) {
	file := func(v float32) *safetensors.File {
		return &safetensors.File{Kind: "k", Tensors: []safetensors.Tensor{{Name: "w", Shape: []int{1}, Data: []float32{v}}}}
	}
	// In float32, 16777216 + 1 rounds back to 16777216, so a float32 sum of
	// (2²⁴, 1, 1) is 2²⁴ and the mean 5592405.33; in float64 it is 5592406.
	got, err := safetensors.Average([]*safetensors.File{file(1 << 24), file(1), file(1)})
	if err != nil {
		t.Fatal(err)
	}
	if v := got.Tensors[0].Data[0]; v != 5592406 {
		t.Errorf("mean %v, want 5592406", v)
	}
}
