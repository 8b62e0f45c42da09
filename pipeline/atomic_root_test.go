package pipeline

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileInRoot writes, replaces and fails to write files through an
// os.Root: a failed render leaves the old file and no temporary file, and
// a path out of the root is refused.
func TestWriteFileInRoot(t *testing.T) {
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
			err := WriteFileInRoot(root, tc.rel, tc.render)
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
