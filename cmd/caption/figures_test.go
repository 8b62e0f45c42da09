package main

import (
	"bytes"
	"image"
	"image/gif"
	_ "image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/tiff"
)

// TestOverlaySameStem: b.gif and b.tiff in one folder both get captions
// and figures of their own, and a figure that cannot be written leaves
// the caption standing.
func TestOverlaySameStem(t *testing.T) {
	encoder := sharedEncoder(t)
	img, _, err := image.Decode(bytes.NewReader(mustRead(t, fixtureImage("red-square"))))
	if err != nil {
		t.Fatal(err)
	}
	photos := t.TempDir()
	var g, tf bytes.Buffer
	if err := gif.Encode(&g, img, nil); err != nil {
		t.Fatal(err)
	}
	if err := tiff.Encode(&tf, img, nil); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"b.gif": g.Bytes(), "b.tiff": tf.Bytes(), "a.png": mustRead(t, fixtureImage("blue-circle"))} {
		if err := os.WriteFile(filepath.Join(photos, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	figures := filepath.Join(t.TempDir(), "figures")
	base := []string{"-model", fixtureModel, "-encoder", encoder, "--overlay", figures}
	t.Run("batch", func(t *testing.T) {
		code, stdout, stderr := runCase(append(base, "--quiet", "-j", "1", photos), nil)
		if code != 0 || strings.Count(stdout, `"error"`) > strings.Count(stdout, `"error":""`) {
			t.Fatalf("exit %d, stdout %s\n%s", code, stdout, stderr)
		}
		for _, f := range []string{"b.gif.png", "b.tiff.png", "a.png"} {
			if _, err := os.Stat(filepath.Join(figures, f)); err != nil {
				t.Errorf("no figure %s: %v", f, err)
			}
		}
	})
	t.Run("files", func(t *testing.T) {
		code, stdout, stderr := runCase(append(base, filepath.Join(photos, "b.gif"), filepath.Join(photos, "b.tiff")), nil)
		if code != 0 || strings.Count(stdout, "\n") != 2 {
			t.Fatalf("exit %d, stdout %q\n%s", code, stdout, stderr)
		}
	})
	t.Run("figure in the way", func(t *testing.T) {
		blocked := t.TempDir()
		if err := os.WriteFile(filepath.Join(blocked, "a.png"), []byte("not a figure"), 0o644); err != nil {
			t.Fatal(err)
		}
		args := []string{"-model", fixtureModel, "-encoder", encoder, "--overlay", blocked, filepath.Join(photos, "a.png")}
		code, stdout, stderr := runCase(args, nil)
		if code != 0 || strings.TrimSpace(stdout) == "" || !strings.Contains(stderr, "warning: no figure") {
			t.Errorf("exit %d, stdout %q, stderr %q; want the caption and a warning", code, stdout, stderr)
		}
		code, stdout, stderr = runCase(append(args[:len(args)-1], "-o", filepath.Join(t.TempDir(), "c.jsonl"), photos), nil)
		if code != 0 {
			t.Errorf("batch: exit %d, stderr %q; want 0, the figure's failure in its record", code, stderr)
		}
	})
}
