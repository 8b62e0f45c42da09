package plot

import (
	"flag"
	"image"
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/attend-go/attend/internal/goldenimage"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata")

// checkGolden compares m with testdata/name, or rewrites it with -update,
// within vision's tolerance for its figures.
func checkGolden(t *testing.T, name string, m *image.RGBA) {
	t.Helper()
	goldenimage.Check(t, filepath.Join("testdata", name), m, goldenimage.Tolerance{Levels: 8, Fraction: 0.0001}, *update, "-update")
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
