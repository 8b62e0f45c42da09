package overlay

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// tree makes files (contents "photo") below a new directory.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("photo"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestDirNames(t *testing.T) {
	photos := tree(t, "a.jpg", "trip/b.webp", "trip/day 2/c.JPEG", "noext")
	out := filepath.Join(t.TempDir(), "figs")
	d, err := OpenDir(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tests := []struct{ root, input, want string }{
		{photos, filepath.Join(photos, "a.jpg"), "a.png"},
		{photos, filepath.Join(photos, "trip/b.webp"), "trip/b.png"},
		{photos, filepath.Join(photos, "trip/day 2/c.JPEG"), "trip/day 2/c.png"},
		{filepath.Join(photos, "trip"), filepath.Join(photos, "trip/b.webp"), "b.png"},
		{photos, filepath.Join(photos, "noext"), "noext.png"},
		{".", "-", "stdin.png"},
	}
	for _, tc := range tests {
		got, err := d.Write(tc.root, tc.input, scene(30, 20), testCaption())
		if err != nil {
			t.Fatalf("%s: %v", tc.input, err)
		}
		if want := filepath.Join(out, tc.want); got != want {
			t.Errorf("%s under %s → %s, want %s", tc.input, tc.root, got, want)
		}
		if p, _ := d.Path(tc.root, tc.input); p != got {
			t.Errorf("Path = %s, Write wrote %s", p, got)
		}
		if data, err := os.ReadFile(got); err != nil || !IsFigure(data) {
			t.Errorf("%s: %v", got, err)
		}
	}
	g, err := OpenDir(out, &Options{Format: GIF})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if p, err := g.Write(photos, filepath.Join(photos, "a.jpg"), scene(30, 20), testCaption()); err != nil || filepath.Base(p) != "a.gif" {
		t.Errorf("GIF: %s, %v", p, err)
	}
}

func TestDirRefuses(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		// setup returns the output directory, the root and the input.
		setup func(t *testing.T, photos string) (out, root, input string)
		is    error
		want  string
	}{
		{
			name: "output is the input", files: []string{"x.png"},
			setup: func(t *testing.T, photos string) (string, string, string) {
				return photos, photos, filepath.Join(photos, "x.png")
			},
			is: ErrOverwriteInput, want: "its figure would be written over it",
		},
		{
			name: "output is the input spelled otherwise", files: []string{"x.png"},
			setup: func(t *testing.T, photos string) (string, string, string) {
				return filepath.Join(photos, "sub", ".."), photos, filepath.Join(photos, "x.png")
			},
			is: ErrOverwriteInput,
		},
		{
			name: "output is another file", files: []string{"x.jpg", "x.png", "x.jpg.png"},
			setup: func(t *testing.T, photos string) (string, string, string) {
				return photos, photos, filepath.Join(photos, "x.jpg")
			},
			is: ErrExists, want: "x.jpg.png exists and was not written by caption overlay",
		},
		{
			name: "input outside its root", files: []string{"a/x.jpg", "b/y.jpg"},
			setup: func(t *testing.T, photos string) (string, string, string) {
				return t.TempDir(), filepath.Join(photos, "a"), filepath.Join(photos, "b/y.jpg")
			},
			is: ErrOutside, want: "is not below",
		},
		{
			name: "symbolic link out of the directory", files: []string{"x.jpg"},
			setup: func(t *testing.T, photos string) (string, string, string) {
				out := t.TempDir()
				if err := os.Symlink(t.TempDir(), filepath.Join(out, "sub")); err != nil {
					t.Skip("no symbolic links:", err)
				}
				if err := os.MkdirAll(filepath.Join(photos, "sub"), 0o777); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(filepath.Join(photos, "x.jpg"), filepath.Join(photos, "sub/x.jpg")); err != nil {
					t.Fatal(err)
				}
				return out, photos, filepath.Join(photos, "sub/x.jpg")
			},
			is: ErrOutside, want: "sub/x.png: path escapes from parent",
		},
		{
			name: "symbolic link to the input", files: []string{"x.jpg"},
			setup: func(t *testing.T, photos string) (string, string, string) {
				out := t.TempDir()
				if err := os.Symlink(filepath.Join(photos, "x.jpg"), filepath.Join(out, "x.png")); err != nil {
					t.Skip("no symbolic links:", err)
				}
				return out, photos, filepath.Join(photos, "x.jpg")
			},
			is: ErrOutside,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			photos := tree(t, tc.files...)
			out, root, input := tc.setup(t, photos)
			d, err := OpenDir(out, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			_, err = d.Write(root, input, scene(30, 20), testCaption())
			if err == nil || !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Write = %v, want %v containing %q", err, tc.is, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "overlay: "+input+": ") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error does not start by naming the input on one line: %q", err)
			}
			for _, f := range tc.files {
				if data, err := os.ReadFile(filepath.Join(photos, f)); err == nil && string(data) != "photo" {
					t.Errorf("%s was replaced", f)
				}
			}
		})
	}
}

// TestDirNameTaken: two inputs that map to one figure are refused, the
// second naming the first, and the first keeps its figure.
func TestDirNameTaken(t *testing.T) {
	photos := tree(t, "a/x.jpg", "b/x.jpg")
	d, err := OpenDir(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	first := filepath.Join(photos, "a/x.jpg")
	if _, err := d.Write(filepath.Dir(first), first, scene(30, 20), testCaption()); err != nil {
		t.Fatal(err)
	}
	second := filepath.Join(photos, "b/x.jpg")
	_, err = d.Write(filepath.Dir(second), second, scene(30, 20), testCaption())
	if !errors.Is(err, ErrNameTaken) || !strings.Contains(err.Error(), "is already the figure of "+first) {
		t.Fatalf("second x.jpg: %v", err)
	}
	// The same input again (a retry) may replace its own figure.
	if _, err := d.Write(filepath.Dir(first), first, scene(30, 20), testCaption()); err != nil {
		t.Fatal(err)
	}
}

// TestDirReplacesOwnFigures: a second run over the same directory
// replaces the figures of the first.
func TestDirReplacesOwnFigures(t *testing.T) {
	photos := tree(t, "x.jpg")
	out := t.TempDir()
	for run := range 2 {
		d, err := OpenDir(out, &Options{Size: 30 + 10*run})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Write(photos, filepath.Join(photos, "x.jpg"), scene(30, 20), testCaption()); err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		d.Close()
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1 (no temporary files left)", len(entries))
	}
}

func TestDirConcurrent(t *testing.T) {
	var files []string
	for i := range 16 {
		files = append(files, fmt.Sprintf("d%d/p%02d.jpg", i%3, i))
	}
	photos := tree(t, files...)
	out := t.TempDir()
	d, err := OpenDir(out, &Options{Size: 40})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var wg sync.WaitGroup
	errs := make([]error, len(files))
	for i, f := range files {
		wg.Go(func() {
			_, errs[i] = d.Write(photos, filepath.Join(photos, f), scene(30, 20), testCaption())
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("%s: %v", files[i], err)
		}
		fig := filepath.Join(out, strings.TrimSuffix(files[i], ".jpg")+".png")
		if data, err := os.ReadFile(fig); err != nil || !IsFigure(data) {
			t.Errorf("%s: %v", fig, err)
		}
	}
}

func TestOpenDirErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenDir(file, nil); err == nil || !strings.HasPrefix(err.Error(), "overlay: ") {
		t.Errorf("OpenDir(file) = %v", err)
	}
	if _, err := OpenDir(t.TempDir(), &Options{Format: "bmp"}); !errors.Is(err, ErrOptions) {
		t.Errorf("OpenDir with format bmp: %v", err)
	}
}

func TestAcceptImage(t *testing.T) {
	var fig bytes.Buffer
	if err := Encode(&fig, scene(30, 20), testCaption(), &Options{Size: 30}); err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	if err := png.Encode(&plain, scene(30, 20)); err != nil {
		t.Fatal(err)
	}
	if AcceptImage("fig.png", fig.Bytes()) || !AcceptImage("photo.png", plain.Bytes()) || AcceptImage("notes.txt", []byte("hello")) {
		t.Error("AcceptImage takes figures, refuses photos or takes text")
	}
}
