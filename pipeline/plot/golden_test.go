package plot

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata")

// Golden comparison tolerance: a pixel differs when a channel is off by
// more than goldenLevels, and at most goldenFraction of the pixels may
// differ. Floating-point contraction (FMA) on other architectures can move
// a heat value across a colormap entry (a few levels, times the opacity);
// text is drawn from bitmaps and is exact, and changing one letter of a
// label moves about 30 pixels, which the fraction does not forgive.
const (
	goldenLevels   = 8
	goldenFraction = 0.0001
)

// checkGolden compares m with testdata/name, or rewrites it with
// -update. On a mismatch it writes the image it got next to the
// test's temporary files and says where.
func checkGolden(t *testing.T, name string, m *image.RGBA) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		var b bytes.Buffer
		if err := png.Encode(&b, m); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	diff, worst := goldenDiff(m, want)
	if !goldenMatch(m, want) {
		got := filepath.Join(t.TempDir(), name)
		var b bytes.Buffer
		_ = png.Encode(&b, m)
		_ = os.WriteFile(got, b.Bytes(), 0o644)
		if diff < 0 {
			t.Fatalf("%s: size %v, golden %v (got: %s)", name, m.Rect.Size(), want.Bounds().Size(), got)
		}
		t.Fatalf("%s: %d pixels differ by more than %d levels (worst %d); got image kept in %s",
			name, diff, goldenLevels, worst, got)
	}
}

// goldenMatch reports whether got matches want within the tolerance.
func goldenMatch(got *image.RGBA, want image.Image) bool {
	n, _ := goldenDiff(got, want)
	return n >= 0 && float64(n) <= goldenFraction*float64(got.Rect.Dx()*got.Rect.Dy())
}

// goldenDiff counts the pixels of got and want that differ by more than
// goldenLevels in a channel, and the largest difference; -1 if the sizes
// differ.
func goldenDiff(got *image.RGBA, want image.Image) (int, int) {
	if got.Rect.Size() != want.Bounds().Size() {
		return -1, 0
	}
	n, worst := 0, 0
	wb := want.Bounds()
	for y := range got.Rect.Dy() {
		for x := range got.Rect.Dx() {
			a := got.RGBAAt(got.Rect.Min.X+x, got.Rect.Min.Y+y)
			b := color.RGBAModel.Convert(want.At(wb.Min.X+x, wb.Min.Y+y)).(color.RGBA)
			d := max(absDiff(a.R, b.R), absDiff(a.G, b.G), absDiff(a.B, b.B), absDiff(a.A, b.A))
			worst = max(worst, d)
			if d > goldenLevels {
				n++
			}
		}
	}
	return n, worst
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// goldenAlignment returns a synthetic utterance: a spectrogram of 150
// frames × 40 bins with three "words" of rising harmonics, and a
// monotonic alignment of 9 outputs over 38 encoder frames (×4 reduction).
func goldenAlignment() (Spectrogram, Alignment, []time.Duration) {
	spec := Spectrogram{Frames: 150, Bins: 40, Data: make([]float32, 150*40)}
	words := [][2]int{{15, 55}, {62, 100}, {108, 140}}
	for t := range spec.Frames {
		for b := range spec.Bins {
			v := -6.0 + 0.3*math.Sin(float64(t*7+b*3))
			for _, w := range words {
				if t >= w[0] && t < w[1] {
					f0 := 4 + 3*float64(t-w[0])/float64(w[1]-w[0])
					for h := 1.0; h*f0 < 40; h++ {
						d := float64(b) - h*f0
						v = math.Max(v, -h*0.4-d*d)
					}
				}
			}
			spec.Data[t*spec.Bins+b] = float32(v)
		}
	}
	labels := []string{"t", "h", "e", " ", "c", "a", "t", " ", "s"}
	al := Alignment{Outputs: len(labels), Frames: 38, Labels: labels, FrameDuration: 40 * time.Millisecond}
	al.Weights = make([]float32, al.Outputs*al.Frames)
	for k := range al.Outputs {
		c := 4 + 3.6*float64(k)
		var sum float64
		row := al.Weights[k*al.Frames : (k+1)*al.Frames]
		for j := range row {
			d := (float64(j) - c) / 1.1
			row[j] = float32(math.Exp(-d * d / 2))
			sum += float64(row[j])
		}
		for j := range row {
			row[j] /= float32(sum)
		}
	}
	return spec, al, []time.Duration{580 * time.Millisecond, 1040 * time.Millisecond}
}

func TestGoldenAlignmentPlot(t *testing.T) {
	spec, al, bounds := goldenAlignment()
	m, err := AlignmentPlot(spec, al, &AlignmentOptions{WordBoundaries: bounds, Title: "the cat s"})
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "alignment.png", m)
}

func BenchmarkAlignmentPlot(b *testing.B) {
	spec, al, bounds := goldenAlignment()
	o := &AlignmentOptions{WordBoundaries: bounds}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AlignmentPlot(spec, al, o); err != nil {
			b.Fatal(err)
		}
	}
}
