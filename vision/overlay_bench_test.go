package vision

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"
)

// benchCaption returns ten words of seeded 14×14 attention (Show, Attend
// and Tell's grid size) over a 640×480 scene.
func benchCaption(rows, cols int) []Panel {
	rng := rand.New(rand.NewPCG(10, 14))
	panels := make([]Panel, 10)
	for i := range panels {
		panels[i] = Panel{
			Word:    fmt.Sprintf("word%d", i),
			Weights: softmaxWeights(rng, rows, cols, rng.Float64()*float64(rows), rng.Float64()*float64(cols)),
			Beta:    rng.Float32(),
			Peak:    i%2 == 0,
		}
	}
	return panels
}

// benchPanels times OverlayPanels on a 640×480 image with ten words.
func benchPanels(b *testing.B, rows, cols int, o *PanelsOptions) {
	img := testScene(640, 480)
	panels := benchCaption(rows, cols)
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := OverlayPanels(img, panels, rows, cols, o); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0)
}

// reportCPU adds the process's CPU time per operation since cpu0, which on
// a shared machine says more than the wall time.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	if cpu := cpuTime() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkOverlayPanels10Words is the figure the caption tool draws for
// each image: ten 224×168 panels plus the input, labels and legend.
func BenchmarkOverlayPanels10Words(b *testing.B) {
	benchPanels(b, 14, 14, &PanelsOptions{ShowBeta: true})
}

func BenchmarkOverlayPanels10WordsGaussian(b *testing.B) {
	benchPanels(b, 14, 14, &PanelsOptions{OverlayOptions: OverlayOptions{Smoothing: SmoothGaussian}})
}

func BenchmarkOverlayPanels10WordsGrid7(b *testing.B) { benchPanels(b, 7, 7, nil) }

// BenchmarkOverlay640x480 draws one word at the photo's full size.
func BenchmarkOverlay640x480(b *testing.B) {
	img := testScene(640, 480)
	w := benchCaption(14, 14)[0].Weights
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := Overlay(img, w, 14, 14, nil); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0)
}

func BenchmarkOverlayGIF10Words(b *testing.B) {
	img := testScene(640, 480)
	panels := benchCaption(14, 14)
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := OverlayGIF(img, panels, 14, 14, nil); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0)
}
