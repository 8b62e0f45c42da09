package safetensors_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// dirEntries lists the names in dir.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFileCreatesAndReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.safetensors")

	if err := safetensors.WriteFile(path, sampleFile(), safetensors.F32); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := encodeModel(t, sampleFile(), safetensors.F32); !bytes.Equal(got, want) {
		t.Errorf("file holds %d bytes that differ from Write's %d", len(got), len(want))
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm()&0o600 != 0o600 {
		t.Errorf("file mode %v, %v: want at least owner read-write", st.Mode(), err)
	}

	replacement := &safetensors.File{Kind: "caption", Tensors: []safetensors.Tensor{{Name: "w", Shape: []int{1}, Data: []float32{7}}}}
	if err := safetensors.WriteFile(path, replacement, safetensors.F16); err != nil {
		t.Fatal(err)
	}
	f, err := safetensors.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Kind != "caption" || len(f.Tensors) != 1 || f.Tensors[0].Data[0] != 7 {
		t.Errorf("after replacing: %+v", f)
	}
	if names := dirEntries(t, dir); !slices.Equal(names, []string{"model.safetensors"}) {
		t.Errorf("directory holds %q, want only the model", names)
	}
}

// TestWriteFileRelativePath writes to a bare file name, in the working
// directory.
func TestWriteFileRelativePath(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := safetensors.WriteFile("m.safetensors", sampleFile(), safetensors.F16); err != nil {
		t.Fatal(err)
	}
	if _, err := safetensors.ReadFile("m.safetensors"); err != nil {
		t.Fatal(err)
	}
	if names := dirEntries(t, "."); !slices.Equal(names, []string{"m.safetensors"}) {
		t.Errorf("directory holds %q", names)
	}
}

// TestWriteFileFailureLeavesTargetUntouched makes WriteFile fail in each
// phase it can be made to fail in, and checks that the old file survives
// unchanged and no temporary file is left behind.
func TestWriteFileFailureLeavesTargetUntouched(t *testing.T) {
	old := []byte("the previous model")
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string) (path string, f *safetensors.File, dtype safetensors.DType)
		msg   string
	}{
		{"invalid file", func(t *testing.T, dir string) (string, *safetensors.File, safetensors.DType) {
			f := sampleFile()
			f.Tensors[0].Shape = []int{7}
			return filepath.Join(dir, "model.safetensors"), f, safetensors.F32
		}, `tensor "enc.w": shape [7] needs 7 values`},
		{"F16 overflow", func(t *testing.T, dir string) (string, *safetensors.File, safetensors.DType) {
			f := sampleFile()
			f.Tensors[1].Data[0] = 1e5
			return filepath.Join(dir, "model.safetensors"), f, safetensors.F16
		}, "overflows float16"},
		{"missing directory", func(t *testing.T, dir string) (string, *safetensors.File, safetensors.DType) {
			return filepath.Join(dir, "absent", "model.safetensors"), sampleFile(), safetensors.F32
		}, "no such file or directory"},
		{"target is a directory", func(t *testing.T, dir string) (string, *safetensors.File, safetensors.DType) {
			target := filepath.Join(dir, "model.safetensors.d")
			if err := os.Mkdir(target, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(target, "inside"), old, 0o644); err != nil {
				t.Fatal(err)
			}
			return target, sampleFile(), safetensors.F32
		}, "rename"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			existing := filepath.Join(dir, "model.safetensors")
			if err := os.WriteFile(existing, old, 0o644); err != nil {
				t.Fatal(err)
			}
			path, f, dtype := tt.setup(t, dir)
			before := dirEntries(t, dir)

			err := safetensors.WriteFile(path, f, dtype)
			if err == nil || !strings.HasPrefix(err.Error(), "models: ") || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("WriteFile: %v, want an error containing %q", err, tt.msg)
			}
			if got, err := os.ReadFile(existing); err != nil || !bytes.Equal(got, old) {
				t.Errorf("existing file now %q, %v", got, err)
			}
			if after := dirEntries(t, dir); !slices.Equal(after, before) {
				t.Errorf("directory changed from %q to %q", before, after)
			}
		})
	}
}

func TestWriteFileUnsupportedDType(t *testing.T) {
	dir := t.TempDir()
	err := safetensors.WriteFile(filepath.Join(dir, "m.safetensors"), sampleFile(), safetensors.BF16)
	if !errors.Is(err, safetensors.ErrUnsupported) {
		t.Errorf("WriteFile BF16: %v, want ErrUnsupported", err)
	}
	if names := dirEntries(t, dir); len(names) != 0 {
		t.Errorf("directory holds %q, want nothing", names)
	}
}
