// Package goldenimage compares the images tests draw with golden PNG
// files in testdata, as x/image/draw's scale tests and compress/flate's
// golden files do: a test draws, Check compares within a Tolerance, and
// the test's -update flag rewrites the file instead. Package vision's
// figures, pipeline/overlay's and pipeline/plot's use it.
package goldenimage

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// Tolerance says when two images match: a pixel differs when a channel is
// off by more than Levels, and at most Fraction of the pixels may differ.
// Floating-point contraction (FMA) on other architectures can move a heat
// value across a colormap entry (a few levels, times the opacity); text is
// drawn from bitmaps and is exact, and changing one letter of a label moves
// about 30 pixels, which a small Fraction does not forgive.
type Tolerance struct {
	Levels   int
	Fraction float64
}

// Diff counts the pixels of got and want that differ by more than levels
// in a channel, and the largest difference; n is -1 if the sizes differ.
func Diff(got *image.RGBA, want image.Image, levels int) (n, worst int) {
	if got.Rect.Size() != want.Bounds().Size() {
		return -1, 0
	}
	wb := want.Bounds()
	for y := range got.Rect.Dy() {
		for x := range got.Rect.Dx() {
			a := got.RGBAAt(got.Rect.Min.X+x, got.Rect.Min.Y+y)
			b := color.RGBAModel.Convert(want.At(wb.Min.X+x, wb.Min.Y+y)).(color.RGBA)
			d := max(absDiff(a.R, b.R), absDiff(a.G, b.G), absDiff(a.B, b.B), absDiff(a.A, b.A))
			worst = max(worst, d)
			if d > levels {
				n++
			}
		}
	}
	return n, worst
}

// Match reports whether got matches want within tol.
func (tol Tolerance) Match(got *image.RGBA, want image.Image) bool {
	n, _ := Diff(got, want, tol.Levels)
	return n >= 0 && float64(n) <= tol.Fraction*float64(got.Rect.Dx()*got.Rect.Dy())
}

// Check compares got with the PNG file at path within tol, or, when
// update is set, rewrites the file with got. On a mismatch it writes the
// image it got among the test's temporary files and says where; flag
// names the test's update flag in the message that a missing file gives.
func Check(t testing.TB, path string, got *image.RGBA, tol Tolerance, update bool, flag string) {
	t.Helper()
	if update {
		WritePNG(t, path, got)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s %s to create it)", err, t.Name(), flag)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if !tol.Match(got, want) {
		kept := filepath.Join(t.TempDir(), filepath.Base(path))
		WritePNG(t, kept, got)
		n, worst := Diff(got, want, tol.Levels)
		if n < 0 {
			t.Fatalf("%s: size %v, golden %v (got: %s)", filepath.Base(path), got.Rect.Size(), want.Bounds().Size(), kept)
		}
		t.Fatalf("%s: %d pixels differ by more than %d levels (worst %d); got image kept in %s",
			filepath.Base(path), n, tol.Levels, worst, kept)
	}
}

// WritePNG writes m to path as PNG, failing the test on an error.
func WritePNG(t testing.TB, path string, m image.Image) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}
