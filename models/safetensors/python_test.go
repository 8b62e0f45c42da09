package safetensors_test

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// debianPython is Debian's interpreter, which has numpy; check_spec.py needs
// only json and struct.
const debianPython = "/usr/bin/python3"

// checkSpec runs testdata/check_spec.py on file, with the
// expectations file expect if not empty, and returns its output and
// whether it passed.
func checkSpec(t *testing.T, file, expect string) (string, bool) {
	t.Helper()
	if _, err := os.Stat(debianPython); err != nil {
		t.Skipf("%s not found: the independent Python check of the file format cannot run", debianPython)
	}
	args := []string{filepath.Join("testdata", "check_spec.py"), file}
	if expect != "" {
		args = append(args, expect)
	}
	out, err := exec.Command(debianPython, args...).CombinedOutput()
	if _, exit := err.(*exec.ExitError); err != nil && !exit {
		t.Fatalf("running %s: %v", debianPython, err)
	}
	return strings.TrimSpace(string(out)), err == nil
}

// specValues are the tensors of the file TestCheckSpecPython writes: edge
// cases of float16 rounding (ties, subnormals, the overflow edge) and of
// float32 (NaN payloads, infinities, subnormals).
func specValues(dtype safetensors.DType) []safetensors.Tensor {
	f16 := []float32{
		0, float32(math.Copysign(0, -1)), 1, -2, 0.1, 1.0 / 3, math.Pi, math.E,
		65504, -65504, math.Nextafter32(65520, 0),
		0x1p-24, 0x1p-25, 0x3p-25, math.Nextafter32(0x1p-25, 1), 0x3ffp-24, 0x7ffp-25, 0x1p-14, 1e-8,
		1 + 0x1p-11, 1 + 0x3p-11, 2049, 2051, 4097,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
	}
	f32 := append(slices.Clone(f16), 1e30, -3.4e38, 0x1p-149, math.Float32frombits(0x7fc00001), math.Float32frombits(0xff800123))
	values := f16
	if dtype == safetensors.F32 {
		values = f32
	}
	ramp := make([]float32, 1000)
	for i := range ramp {
		ramp[i] = float32(i-500) / 7
	}
	return []safetensors.Tensor{
		{Name: "edge", Shape: []int{len(values)}, Data: values},
		{Name: "enc.ramp", Shape: []int{10, 20, 5}, Data: ramp},
		{Name: "a.scalar", Shape: []int{}, Data: []float32{-1.5}},
		{Name: "empty", Shape: []int{0}, Data: []float32{}},
	}
}

// TestCheckSpecPython writes files in both dtypes and has the independent
// Python checker verify their layout and every stored value; for F16 it
// rounds the float32 inputs itself, with struct's 'e' format and numpy.
// Then it checks that the checker notices a one-byte change.
func TestCheckSpecPython(t *testing.T) {
	dir := t.TempDir()
	for _, dtype := range []safetensors.DType{safetensors.F32, safetensors.F16} {
		t.Run(dtype.String(), func(t *testing.T) {
			f := &safetensors.File{
				Kind:    "caption",
				Config:  json.RawMessage(`{"embed":8}`),
				Vocab:   []string{"<pad>", "a", "dog"},
				Extra:   map[string]string{"note": "checked by check_spec.py"},
				Tensors: specValues(dtype),
			}
			path := filepath.Join(dir, "spec_"+dtype.String()+".safetensors")
			if err := safetensors.WriteFile(path, f, dtype); err != nil {
				t.Fatal(err)
			}
			expect := map[string]any{
				"metadata": map[string]string{
					"attend.kind": "caption", "attend.format_version": "1",
					"attend.config": `{"embed":8}`, "attend.vocab": `["<pad>","a","dog"]`,
					"note": "checked by check_spec.py",
				},
				"tensors": map[string]any{},
			}
			for _, tensor := range f.Tensors {
				bits := make([]uint32, len(tensor.Data))
				for i, v := range tensor.Data {
					bits[i] = math.Float32bits(v)
				}
				expect["tensors"].(map[string]any)[tensor.Name] = map[string]any{
					"dtype": dtype, "shape": tensor.Shape, "bits": bits,
				}
			}
			expectPath := filepath.Join(dir, "expect_"+dtype.String()+".json")
			js, err := json.Marshal(expect)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(expectPath, js, 0o644); err != nil {
				t.Fatal(err)
			}
			out, ok := checkSpec(t, path, expectPath)
			if !ok || !strings.HasPrefix(out, "ok: ") || !strings.Contains(out, "4 tensors") || !strings.Contains(out, "layout and values checked") {
				t.Fatalf("check_spec.py failed on our file:\n%s", out)
			}
			t.Log(out)

			// Negative control: change one bit of the last stored value
			// (of enc.ramp, last in name order).
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)-1] ^= 0x01
			bad := filepath.Join(dir, "bad_"+dtype.String()+".safetensors")
			if err := os.WriteFile(bad, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if out, ok := checkSpec(t, bad, expectPath); ok {
				t.Fatalf("check_spec.py accepted a changed value:\n%s", out)
			}
		})
	}
}

// TestCheckSpecPythonFixtures runs the checker over the committed files,
// so the hand-built Python-style fixture is itself checked against the
// spec by code that shares nothing with the Go reader.
func TestCheckSpecPythonFixtures(t *testing.T) {
	for _, name := range []string{"python_style.safetensors", "sample_f32.safetensors", "sample_f16.safetensors"} {
		out, ok := checkSpec(t, filepath.Join("testdata", name), "")
		if !ok || !strings.HasPrefix(out, "ok: ") {
			t.Errorf("check_spec.py on %s:\n%s", name, out)
		}
	}
}
