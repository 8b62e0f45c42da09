package main

import (
	"bytes"
	"image"
	"image/gif"
	_ "image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli"
)

// The tiny caption fixture: a model trained on six shapes and their
// MobileNetV2 features, so that no encoder is needed.
var (
	tinyDir    = filepath.Join("..", "..", "testdata", "caption")
	tinyModel  = filepath.Join(tinyDir, "tiny.safetensors")
	tinyCache  = filepath.Join(tinyDir, "features-7x7.safetensors")
	tinyImages = filepath.Join(tinyDir, "images")
	redSquare  = filepath.Join(tinyImages, "red-square.png")
)

// runOverlayArgs runs "caption overlay" with the tiny model and cache
// and returns the exit status, stdout and stderr.
func runOverlayArgs(t *testing.T, stdin []byte, args ...string) (int, string, string) {
	t.Helper()
	args = append([]string{"overlay", "-model", tinyModel, "-cache", tinyCache}, args...)
	var stdout, stderr bytes.Buffer
	code := cli.ExitCode("caption", run(args, bytes.NewReader(stdin), &stdout, &stderr), &stderr)
	return code, stdout.String(), stderr.String()
}

// copyImages copies the fixture's images into a new directory.
func copyImages(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(tinyImages)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(tinyImages, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestOverlayWritesFigures(t *testing.T) {
	out := t.TempDir()
	t.Run("png, flags after the image", func(t *testing.T) {
		fig := filepath.Join(out, "red.png")
		code, stdout, stderr := runOverlayArgs(t, nil, redSquare, "-o", fig, "-beta", "-peak", "-columns", "2")
		if code != 0 || stdout != "a red square\n" || !strings.Contains(stderr, "wrote "+fig) {
			t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
		f, err := os.Open(fig)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		m, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		// Four square 224-pixel tiles (the image and three words) in rows
		// of two: twice as tall as a row, about as wide as two tiles.
		if b := m.Bounds(); b.Dx() < 2*224 || b.Dx() > 2*224+60 || b.Dy() < 2*224+40 {
			t.Errorf("figure %v, want two rows of two 224-pixel tiles", b)
		}
	})
	t.Run("gif from the name, one word", func(t *testing.T) {
		fig := filepath.Join(out, "red.gif")
		if code, _, stderr := runOverlayArgs(t, nil, "-word", "2", "-colormap", "viridis", "-o", fig, redSquare); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		f, err := os.Open(fig)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		g, err := gif.DecodeAll(f)
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Image) != 2 {
			t.Errorf("%d frames, want the image and the word", len(g.Image))
		}
	})
	t.Run("standard input to standard output", func(t *testing.T) {
		// Standard input has no name to find in the cache.
		encoder := sharedEncoder(t)
		data, err := os.ReadFile(redSquare)
		if err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runOverlayArgs(t, data, "-encoder", encoder, "-o", "-", "-")
		if code != 0 || !strings.HasPrefix(stdout, "\x89PNG") {
			t.Fatalf("exit %d, stdout %.20q, stderr %s", code, stdout, stderr)
		}
		if _, err := png.Decode(strings.NewReader(stdout)); err != nil {
			t.Error(err)
		}
	})
}

func TestOverlayDir(t *testing.T) {
	images := copyImages(t)
	if err := os.MkdirAll(filepath.Join(images, "more"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(images, "blue-circle.png"), filepath.Join(images, "more", "blue-circle.png")); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "figs")
	for run := range 2 { // the second run replaces the figures of the first
		code, stdout, stderr := runOverlayArgs(t, nil, "-dir", out, images, "-peak")
		if code != 0 {
			t.Fatalf("run %d: exit %d: %s", run, code, stderr)
		}
		if lines := strings.Count(stdout, "\n"); lines != 6 || !strings.Contains(stdout, "red-square.png\ta red square\n") {
			t.Errorf("run %d: stdout %q, want 6 lines of PATH<TAB>caption", run, stdout)
		}
		if !strings.Contains(stderr, "wrote 6 figures into "+out) {
			t.Errorf("run %d: stderr %q", run, stderr)
		}
	}
	for _, name := range []string{"red-square.png", "more/blue-circle.png"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	// The figures' directory as input: figures are skipped, not drawn.
	code, stdout, stderr := runOverlayArgs(t, nil, "-dir", t.TempDir(), out)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "wrote 0 figures") {
		t.Errorf("figures as input: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestOverlayErrors runs the failures: each is one line on stderr, names
// the image when it concerns one, and exits 1 (2 for usage).
func TestOverlayErrors(t *testing.T) {
	images := copyImages(t)
	red := filepath.Join(images, "red-square.png")
	dirWithPhoto := t.TempDir()
	if err := os.WriteFile(filepath.Join(dirWithPhoto, "red-square.png"), []byte("my photo"), 0o644); err != nil {
		t.Fatal(err)
	}
	dirWithLink := t.TempDir()
	if err := os.Symlink(t.TempDir(), filepath.Join(dirWithLink, "sub")); err != nil {
		t.Fatal(err)
	}
	nested := filepath.Join(t.TempDir(), "photos")
	if err := os.MkdirAll(filepath.Join(nested, "sub"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(nested, "sub", "red-square.png"), mustRead(t, red), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{name: "no such word", args: []string{"-word", "9", "-o", filepath.Join(t.TempDir(), "x.png"), red}, code: 1,
			stderr: "caption: " + red + `: overlay: no such word: word 9 of the 3-word caption "a red square"`},
		{name: "no such word by name", args: []string{"-words", "red,cat", "-o", filepath.Join(t.TempDir(), "x.png"), red}, code: 1,
			stderr: "caption: " + red + `: overlay: no such word: "cat" is not in the 3-word caption "a red square"`},
		{name: "unknown colormap", args: []string{"-colormap", "jet", "-o", "x.png", red}, code: 2,
			stderr: `caption: -colormap "jet": want turbo, viridis, inferno or mask`},
		{name: "output is the input", args: []string{"-o", red, red}, code: 1,
			stderr: "caption: overlay: " + red + ": output would replace an input"},
		{name: "dir holds the inputs", args: []string{"-dir", images, red}, code: 1,
			stderr: "caption: overlay: " + red + ": output would replace an input: its figure would be written over it"},
		{name: "a photo in the way", args: []string{"-dir", dirWithPhoto, red}, code: 1,
			stderr: "caption: overlay: " + red + ": a file that is not an overlay is in the way: " + filepath.Join(dirWithPhoto, "red-square.png") + " exists"},
		{name: "link out of the dir", args: []string{"-dir", dirWithLink, nested}, code: 1,
			stderr: "caption: overlay: " + filepath.Join(nested, "sub", "red-square.png") + ": figure outside the output directory"},
		{name: "missing image", args: []string{"-dir", t.TempDir(), filepath.Join(images, "nope.png"), red}, code: 1,
			stderr: "nope.png: no such file or directory"},
		{name: "no image", args: []string{"-o", "x.png"}, code: 2, stderr: "overlay needs at least one image"},
		{name: "no output", args: []string{red}, code: 2, stderr: "say where the figures go"},
		{name: "both outputs", args: []string{"-o", "x.png", "-dir", "d", red}, code: 2, stderr: "-o and -dir exclude each other"},
		{name: "-o for two", args: []string{"-o", "x.png", red, red}, code: 2, stderr: "with 2 images use -dir DIR"},
		{name: "format clash", args: []string{"-format", "png", "-o", "x.gif", red}, code: 2, stderr: "-format png, but -o x.gif"},
		{name: "bad format", args: []string{"-format", "bmp", "-o", "x", red}, code: 2, stderr: `-format "bmp": want png, gif or jpg`},
		{name: "word zero", args: []string{"-word", "-1", "-o", "x.png", red}, code: 2, stderr: "numbered from 1"},
		{name: "tiny tiles", args: []string{"-size", "5", "-o", "x.png", red}, code: 2, stderr: "-size 5"},
		{name: "bad smoothing", args: []string{"-smoothing", "cubic", "-o", "x.png", red}, code: 2, stderr: `-smoothing "cubic"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runOverlayArgs(t, nil, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, stderr, tc.code, tc.stderr)
			}
			for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
				if tc.code == 1 && !strings.HasPrefix(line, "caption: ") {
					t.Errorf("stderr line %q lacks the tool's name", line)
				}
			}
		})
	}
	// Nothing was written over an input or the photo in the way.
	if data := mustRead(t, filepath.Join(dirWithPhoto, "red-square.png")); string(data) != "my photo" {
		t.Error("the photo in the way was replaced")
	}
	if _, err := png.Decode(bytes.NewReader(mustRead(t, red))); err != nil {
		t.Errorf("the input was damaged: %v", err)
	}
}

// TestOverlayRealEncoder draws a Flickr8k photo through the MobileNetV2
// encoder of the shared data (skipped without it).
func TestOverlayRealEncoder(t *testing.T) {
	encoder := sharedEncoder(t)
	photo := filepath.Join(filepath.Dir(encoder), "..", "flickr8k", "images", "1032122270_ea6f0beedb.jpg")
	if _, err := os.Stat(photo); err != nil {
		t.Skipf("skipping: %v", err)
	}
	fig := filepath.Join(t.TempDir(), "photo.png")
	var stdout, stderr bytes.Buffer
	err := run([]string{"overlay", "-model", tinyModel, "-encoder", encoder, "-fit", "crop", photo, "-o", fig}, nil, &stdout, &stderr)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	f, err := os.Open(fig)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(stdout.String()) == "" {
		t.Error("no caption printed")
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestOverlayFormatFromExtension: -o x.jpg writes a JPEG, .gif a GIF and
// .png a PNG; an extension of no figure format is a usage error.
func TestOverlayFormatFromExtension(t *testing.T) {
	out := t.TempDir()
	for ext, format := range map[string]string{".jpg": "jpeg", ".JPEG": "jpeg", ".gif": "gif", ".png": "png"} {
		fig := filepath.Join(out, "red"+ext)
		if code, _, stderr := runOverlayArgs(t, nil, redSquare, "-o", fig); code != 0 {
			t.Fatalf("-o %s: exit %d\n%s", fig, code, stderr)
		}
		f, err := os.Open(fig)
		if err != nil {
			t.Fatal(err)
		}
		_, got, err := image.DecodeConfig(f)
		f.Close()
		if err != nil || got != format {
			t.Errorf("-o %s wrote %q (%v), want %s", fig, got, err, format)
		}
	}
	code, _, stderr := runOverlayArgs(t, nil, redSquare, "-o", filepath.Join(out, "red.tif"))
	if code != 2 || !strings.Contains(stderr, ".png, .gif (one word per frame) or .jpg") {
		t.Errorf("-o red.tif: exit %d, stderr %q; want a usage error naming the formats", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "red.tif")); err == nil {
		t.Error("red.tif written")
	}
}
