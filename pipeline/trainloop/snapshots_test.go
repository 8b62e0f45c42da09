package trainloop

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// weights returns a function that returns a one-tensor model file whose
// weight is v.
func weights(v float32) func() (*safetensors.File, error) {
	return func() (*safetensors.File, error) {
		return &safetensors.File{Kind: "k", Tensors: []safetensors.Tensor{{Name: "w", Shape: []int{1}, Data: []float32{v}}}}, nil
	}
}

// listDir returns the names in dir, sorted.
func listDir(t *testing.T, dir string) []string {
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

// touch creates the named empty files in dir.
func touch(t *testing.T, dir string, names ...string) {
	t.Helper()
	for _, name := range names {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// others are files in a run's directory that snapshots leave alone.
var others = []string{"best.safetensors", "snapshot-1.safetensors.bak", "snapshot-x.safetensors", "snapshot-01.safetensors", "snapshot--1.safetensors"}

func TestSnapshotsSave(t *testing.T) {
	tests := []struct {
		name     string
		keep     int
		existing []string // snapshots there before
		steps    []int    // saved, in order
		want     []string // the snapshots left
	}{
		{"keep the latest", 2, nil, []int{10, 20, 30, 40}, []string{"snapshot-30.safetensors", "snapshot-40.safetensors"}},
		{"keep more than written", 5, nil, []int{5, 100}, []string{"snapshot-100.safetensors", "snapshot-5.safetensors"}},
		{"keep one", 1, nil, []int{7, 9}, []string{"snapshot-9.safetensors"}},
		{"replayed steps after a resume", 2, []string{"snapshot-10.safetensors", "snapshot-20.safetensors", "snapshot-30.safetensors"}, []int{20},
			[]string{"snapshot-10.safetensors", "snapshot-20.safetensors"}},
		{"none", 0, nil, []int{10, 20}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			touch(t, dir, others...)
			touch(t, dir, tc.existing...)
			s := Snapshots{Dir: dir, Keep: tc.keep}
			for _, step := range tc.steps {
				if err := s.Save(step, weights(float32(step))); err != nil {
					t.Fatal(err)
				}
			}
			want := slices.Sorted(slices.Values(append(slices.Clone(others), tc.want...)))
			if got := listDir(t, dir); !slices.Equal(got, want) {
				t.Errorf("files %q, want %q", got, want)
			}
			if tc.keep == 0 {
				return
			}
			last := tc.steps[len(tc.steps)-1]
			f, err := safetensors.ReadFile(s.Path(last))
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Tensors[0].Data[0]; got != float32(last) {
				t.Errorf("snapshot %d holds %v, want %v", last, got, last)
			}
		})
	}
}

// TestSnapshotsSaveFile checks that Save builds the file only when it
// keeps snapshots, and passes on the error of building it.
func TestSnapshotsSaveFile(t *testing.T) {
	called := false
	file := func() (*safetensors.File, error) { called = true; return nil, errors.New("no weights") }
	if err := (Snapshots{Dir: t.TempDir()}).Save(1, file); err != nil || called {
		t.Errorf("without snapshots: error %v, file built %v; want neither", err, called)
	}
	dir := t.TempDir()
	if err := (Snapshots{Dir: dir, Keep: 1}).Save(1, file); err == nil || err.Error() != "no weights" {
		t.Errorf("error %v, want the file's", err)
	}
	if names := listDir(t, dir); len(names) != 0 {
		t.Errorf("files %q written after an error", names)
	}
}

func TestSnapshotsPrepare(t *testing.T) {
	old := []string{"snapshot-100.safetensors", "snapshot-200.safetensors"}
	tests := []struct {
		name              string
		keep              int
		old               bool // the directory holds snapshots of another run
		resume, overwrite bool
		removed           int
		err               string // in the error, if one is wanted
	}{
		{"fresh directory", 8, false, false, false, 0, ""},
		{"resume", 8, true, true, false, 0, ""},
		{"overwrite", 8, true, false, true, 2, ""},
		{"another run's", 8, true, false, false, 0, "holds 2 snapshots of another run (snapshot-100.safetensors …)"},
		{"no snapshots kept", 0, true, false, false, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			touch(t, dir, others...)
			if tc.old {
				touch(t, dir, old...)
			}
			removed, err := Snapshots{Dir: dir, Keep: tc.keep}.Prepare(tc.resume, tc.overwrite)
			switch {
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), dir)):
				t.Fatalf("error %v, want one naming %s with %q", err, dir, tc.err)
			}
			if removed != tc.removed {
				t.Errorf("removed %d, want %d", removed, tc.removed)
			}
			want := slices.Clone(others)
			if tc.old && tc.removed == 0 {
				want = append(want, old...)
			}
			slices.Sort(want)
			if got := listDir(t, dir); !slices.Equal(got, want) {
				t.Errorf("files %q, want %q", got, want)
			}
		})
	}
	if removed, err := (Snapshots{Dir: filepath.Join(t.TempDir(), "none"), Keep: 8}).Prepare(false, true); err != nil || removed != 0 {
		t.Errorf("a directory not made yet: removed %d, error %v; want 0, nil", removed, err)
	}
}
