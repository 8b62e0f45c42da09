package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

// entries lists dir, failing the test if it cannot.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	for _, s := range []string{"first", "second"} {
		if err := WriteFile(path, writeString(s), nil); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(path); string(got) != s {
			t.Errorf("file holds %q, want %q", got, s)
		}
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v, want only out.txt", names)
	}
}

func TestWriteFileFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o666); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(path, func(w io.Writer) error { io.WriteString(w, "part"); return boom }, nil)
	if !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "writing "+path+": ") {
		t.Errorf("error %v, want writing %s: boom", err, path)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("file holds %q after a failed write, want the old contents", got)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v after a failed write, want only out.txt", names)
	}
}

func TestWriteFileMissingDir(t *testing.T) {
	err := WriteFile(filepath.Join(t.TempDir(), "no", "out.txt"), writeString("x"), nil)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v, want one wrapping fs.ErrNotExist", err)
	}
}

func TestPerm(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	path := filepath.Join(t.TempDir(), "out.txt")
	if err := WriteFile(path, writeString("x"), &Options{Perm: 0o640}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v (%v), want 0640", fi.Mode(), err)
	}
}

func TestNoReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteFile(path, writeString("new"), &Options{NoReplace: true}); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(path, writeString("newer"), &Options{NoReplace: true})
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("second write: error %v, want one wrapping fs.ErrExist", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("file holds %q, want the first write's", got)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v, want only out.txt", names)
	}
}

func TestReplaceKeepsFileOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.txt")
	f, err := Create(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	io.WriteString(f, "a")
	if err := f.Replace(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "b") // still open: the file now at path
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "ab" {
		t.Errorf("file holds %q, want ab", got)
	}
}

// TestWriteIn writes, replaces and fails to write files through an
// os.Root: a failed render leaves the old file and no temporary file, and
// a path out of the root is refused.
func TestWriteIn(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	text := func(s string) func(io.Writer) error {
		return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
	}
	boom := errors.New("boom")
	tests := []struct {
		name, rel string
		render    func(io.Writer) error
		want      string // the file's contents afterwards
		err       bool
	}{
		{"new file in a new directory", "a/b/out.txt", text("one"), "one", false},
		{"replaces", "a/b/out.txt", text("two"), "two", false},
		{"failed render keeps the old file", "a/b/out.txt", func(io.Writer) error { return boom }, "two", true},
		{"outside the root", "../escape.txt", text("x"), "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := WriteIn(root, tc.rel, tc.render, nil)
			if (err != nil) != tc.err {
				t.Fatalf("err %v, want error %v", err, tc.err)
			}
			if tc.want == "" {
				if _, err := os.Stat(filepath.Join(dir, tc.rel)); err == nil {
					t.Errorf("%s exists", tc.rel)
				}
				return
			}
			got, err := os.ReadFile(filepath.Join(dir, tc.rel))
			if err != nil || string(got) != tc.want {
				t.Errorf("contents %q (%v), want %q", got, err, tc.want)
			}
			entries, _ := os.ReadDir(filepath.Join(dir, filepath.Dir(tc.rel)))
			if len(entries) != 1 {
				t.Errorf("directory holds %d entries, want the file alone (no temporary left)", len(entries))
			}
		})
	}
}

func TestFixedTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	stale := filepath.Join(dir, ".out.txt.part")
	if err := os.WriteFile(stale, []byte("a longer leftover"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, writeString("x"), &Options{Temp: ".out.txt.part"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "x" {
		t.Errorf("file holds %q, want x", got)
	}
	if names := entries(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v, want only out.txt", names)
	}
}

// TestCreateErrorNamesTarget: a failure to create names the file asked
// for, not the hidden temporary file.
func TestCreateErrorNamesTarget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "missing", "plot.png")
	err := WriteFile(path, writeString("x"), nil)
	var pe *os.PathError
	if !errors.As(err, &pe) || pe.Path != path || strings.Contains(err.Error(), ".tmp") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("error %v: want a *PathError naming %s", err, path)
	}
}

// syncRecorder is an os.Root that records the directories synced.
type syncRecorder struct {
	*os.Root
	synced []string
}

func (r *syncRecorder) Open(name string) (*os.File, error) {
	f, err := r.Root.Open(name)
	if err == nil {
		if st, _ := f.Stat(); st != nil && st.IsDir() {
			r.synced = append(r.synced, name)
		}
	}
	return f, err
}

// TestMkdirAllSynced: each directory made has its parent synced, the
// deepest first; existing ones are left alone.
func TestMkdirAllSynced(t *testing.T) {
	root, err := os.OpenRoot(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if err := root.Mkdir("a", 0o777); err != nil {
		t.Fatal(err)
	}
	rec := &syncRecorder{Root: root}
	if err := mkdirAllSynced(rec, filepath.Join("a", "b", "c")); err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join("a", "b"), "a"}; !slices.Equal(rec.synced, want) {
		t.Errorf("synced %q, want %q", rec.synced, want)
	}
	rec.synced = nil
	if err := mkdirAllSynced(rec, filepath.Join("a", "b")); err != nil || len(rec.synced) != 0 {
		t.Errorf("existing directories: %v, synced %q", err, rec.synced)
	}
	if err := WriteIn(root, filepath.Join("x", "y", "f.txt"), writeString("z"), nil); err != nil {
		t.Fatal(err)
	}
}
