package overlay

import (
	"errors"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	c := testCaption()
	for _, f := range Formats {
		path := filepath.Join(dir, "fig."+string(f))
		if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := Write(path, scene(40, 30), c, &Options{Format: f, Size: 40}); err != nil {
			t.Fatal(err)
		}
		file, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		switch f {
		case PNG:
			_, err = png.Decode(file)
		case JPEG:
			_, err = jpeg.Decode(file)
		default:
			_, err = gif.DecodeAll(file)
		}
		file.Close()
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	// A failed write leaves the old file and no temporary one.
	path := filepath.Join(dir, "fig.png")
	before, _ := os.ReadFile(path)
	if err := Write(path, scene(40, 30), c, &Options{Words: []int{9}}); !errors.Is(err, ErrWord) {
		t.Fatalf("Write with a bad word: %v", err)
	}
	after, _ := os.ReadFile(path)
	entries, _ := os.ReadDir(dir)
	if string(before) != string(after) || len(entries) != len(Formats) {
		t.Errorf("failed write changed the directory: %d entries", len(entries))
	}
	if err := Write(filepath.Join(dir, "missing", "fig.png"), scene(40, 30), c, nil); err == nil || !strings.HasPrefix(err.Error(), "overlay: ") {
		t.Errorf("write into a missing directory: %v", err)
	}
}

func TestCheckOutput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "photo.png")
	if err := os.WriteFile(in, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.png")
	hard := filepath.Join(dir, "hard.png")
	if err := os.Symlink("photo.png", link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := os.Link(in, hard); err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, in)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, output, input string
		bad                 bool
	}{
		{name: "other file", output: filepath.Join(dir, "fig.png"), input: in},
		{name: "same path", output: in, input: in, bad: true},
		{name: "spelled differently", output: filepath.Join(dir, ".", "sub", "..", "photo.png"), input: in, bad: true},
		{name: "relative and absolute", output: rel, input: in, bad: true},
		{name: "symbolic link", output: link, input: in, bad: true},
		{name: "hard link", output: hard, input: in, bad: true},
		{name: "standard input", output: in, input: "-"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckOutput(tc.output, tc.input)
			if !tc.bad {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrOverwriteInput) || !strings.HasPrefix(err.Error(), "overlay: "+tc.input+": ") {
				t.Fatalf("CheckOutput = %v, want ErrOverwriteInput naming %s", err, tc.input)
			}
		})
	}
}

// TestWriteMode: figures are ordinary files (0666 less the umask), not
// the 0600 of a temporary file.
func TestWriteMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fig.png")
	if err := Write(path, scene(30, 20), testCaption(), &Options{Size: 30}); err != nil {
		t.Fatal(err)
	}
	probe := filepath.Join(filepath.Dir(path), "probe")
	if err := os.WriteFile(probe, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	want, _ := os.Stat(probe)
	got, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Mode().Perm() != want.Mode().Perm() {
		t.Errorf("mode %v, want %v as os.WriteFile gives", got.Mode().Perm(), want.Mode().Perm())
	}
}
