package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// writeModel writes a small model file of kind with weights w to dir/name
// and returns its path.
func writeModel(t *testing.T, dir, name, kind, config string, w ...float32) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f := &safetensors.File{
		Kind:    kind,
		Config:  json.RawMessage(config),
		Vocab:   []string{"<eos>", "a"},
		Tensors: []safetensors.Tensor{{Name: "w", Shape: []int{len(w)}, Data: w}},
	}
	if err := safetensors.WriteFile(path, f, safetensors.F32); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkKind is the check of the tests' tool, "tool", whose models are of
// kind "tool".
func checkKind(f *safetensors.File) error { return f.CheckKind("tool") }

func TestAverageCommand(t *testing.T) {
	dir := t.TempDir()
	a := writeModel(t, dir, "a.safetensors", "tool", `{"n":2}`, 1, -2, 0.5)
	b := writeModel(t, dir, "b.safetensors", "tool", `{"n":2}`, 2, -4, 1.5)
	c := writeModel(t, dir, "c.safetensors", "tool", `{"n":2}`, 6, 0, 1)
	tests := []struct {
		name  string
		args  []string
		dtype safetensors.DType
		line  string // the start of stdout
	}{
		{"float32", []string{"-o", filepath.Join(dir, "avg.safetensors"), a, b, c}, safetensors.F32, "averaged 3 models → " + filepath.Join(dir, "avg.safetensors") + " (id avg.safetensors@sha256:"},
		{"float16", []string{"-dtype", "float16", "-o", filepath.Join(dir, "half.safetensors"), a, b, c}, safetensors.F16, "averaged 3 models → "},
		{"json", []string{"-json", "-o", filepath.Join(dir, "avg.json.safetensors"), a, b, c}, safetensors.F32, `{"model":"` + filepath.Join(dir, "avg.json.safetensors") + `","id":"avg.json.safetensors@sha256:`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			run := AverageCommand("tool", "tool", "m.safetensors", checkKind)
			if err := run(tc.args, nil, &stdout, &stderr); err != nil {
				t.Fatalf("%v\n%s", err, stderr.String())
			}
			if !strings.HasPrefix(stdout.String(), tc.line) || strings.Count(stdout.String(), "\n") != 1 {
				t.Errorf("stdout %q, want one line starting %q", stdout.String(), tc.line)
			}
			out := tc.args[slices.Index(tc.args, "-o")+1]
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			s, err := safetensors.NewReader(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			if info, _ := s.Info("w"); info.DType != tc.dtype {
				t.Errorf("dtype %s, want %s", info.DType, tc.dtype)
			}
			f, err := safetensors.Parse(data)
			if err != nil {
				t.Fatal(err)
			}
			if w, want := f.Tensors[0].Data, []float32{3, -2, 1}; !slices.Equal(w, want) {
				t.Errorf("average %v, want %v", w, want)
			}
			if from, want := f.Extra[safetensors.AveragedFromKey], `["`+a+`","`+b+`","`+c+`"]`; from != want {
				t.Errorf("%s = %s, want %s", safetensors.AveragedFromKey, from, want)
			}
			if tc.name != "json" {
				return
			}
			var obj struct {
				ID     string   `json:"id"`
				Models []string `json:"models"`
				Params int      `json:"params"`
				Bytes  int      `json:"bytes"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &obj); err != nil {
				t.Fatal(err)
			}
			if obj.ID != safetensors.ModelID("avg.json.safetensors", data) || !slices.Equal(obj.Models, []string{a, b, c}) || obj.Params != 3 || obj.Bytes != len(data) {
				t.Errorf("JSON %+v, want the id, the inputs, 3 params and %d bytes", obj, len(data))
			}
		})
	}
}

func TestAverageCommandErrors(t *testing.T) {
	dir := t.TempDir()
	a := writeModel(t, dir, "a.safetensors", "tool", `{"n":2}`, 1, 2)
	b := writeModel(t, dir, "b.safetensors", "tool", `{"n":2}`, 3, 4)
	other := writeModel(t, dir, "other.safetensors", "other", `{"n":2}`, 1, 2)
	bigger := writeModel(t, dir, "bigger.safetensors", "tool", `{"n":3}`, 1, 2, 3)
	out := filepath.Join(dir, "out.safetensors")
	tests := []struct {
		name  string
		args  []string
		usage bool   // a usage error
		is    error  // the error wraps it, if set
		want  string // in the message
	}{
		{"no output", []string{a, b}, true, nil, "needs -o OUT"},
		{"one model", []string{"-o", out, a}, true, nil, "two or more model files, got 1"},
		{"bad dtype", []string{"-dtype", "bf16", "-o", out, a, b}, true, nil, `-dtype "bf16": want float32 or float16`},
		{"output is an input", []string{"-o", b, a, b}, true, nil, "-o " + b + " is also an input"},
		{"output is a directory", []string{"-o", dir, a, b}, true, nil, "-o " + dir + " is a directory"},
		{"no output directory", []string{"-o", filepath.Join(dir, "none", "out.safetensors"), a, b}, false, os.ErrNotExist, filepath.Join(dir, "none")},
		{"missing input", []string{"-o", out, a, filepath.Join(dir, "none.safetensors")}, false, os.ErrNotExist, filepath.Join(dir, "none.safetensors")},
		{"first of another tool", []string{"-o", out, other, a}, false, safetensors.ErrKind, other + `: kind "other", want "tool"`},
		{"second of another kind", []string{"-o", out, a, other}, false, safetensors.ErrKind, other + `: kind "other", but ` + a + ` is "tool"`},
		{"another config", []string{"-o", out, a, bigger}, false, safetensors.ErrMismatch, bigger + `: config differs from ` + a + `: "n" is 3 (2 there)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := AverageCommand("tool", "tool", "m.safetensors", checkKind)(tc.args, nil, &stdout, &stderr)
			if err == nil {
				t.Fatal("no error")
			}
			if errors.Is(err, ErrUsage) != tc.usage || tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("error %v: usage %v, want %v; want one wrapping %v", err, errors.Is(err, ErrUsage), tc.usage, tc.is)
			}
			if msg := err.Error(); !strings.Contains(msg, tc.want) || strings.Contains(msg, "\n") {
				t.Errorf("error %q, want one line with %q", msg, tc.want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("%s written despite the error", out)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout %q, want nothing", stdout.String())
			}
		})
	}
	if f, err := safetensors.ReadFile(b); err != nil || !slices.Equal(f.Tensors[0].Data, []float32{3, 4}) {
		t.Errorf("input %s after the errors: %v, %v; want it untouched", b, f, err)
	}
}
