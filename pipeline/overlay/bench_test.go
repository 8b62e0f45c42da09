package overlay

import (
	"math/rand/v2"
	"testing"
)

// benchCaption is a ten-word caption over a 7×7 grid.
func benchCaption() *Caption {
	rng := rand.New(rand.NewPCG(3, 4))
	c := &Caption{Rows: 7, Cols: 7}
	for i := range 10 {
		c.Words = append(c.Words, "word")
		c.Attention = append(c.Attention, peaked(rng, 7, 7, float64(i%7), float64((3*i)%7)))
		c.Beta = append(c.Beta, 0.5)
	}
	return c
}

func benchmarkEncode(b *testing.B, o Options) {
	img, c := scene(640, 480), benchCaption()
	var w countingWriter
	b.ReportAllocs()
	for b.Loop() {
		w = 0
		if err := Encode(&w, img, c, &o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w), "file-bytes")
}

// countingWriter counts the bytes written to it.
type countingWriter int

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}

// The figures of a ten-word caption over a 640×480 photo, 224-pixel
// panels, drawn and encoded.
func BenchmarkEncodePNG10Words(b *testing.B) { benchmarkEncode(b, Options{}) }
func BenchmarkEncodeGIF10Words(b *testing.B) { benchmarkEncode(b, Options{Format: GIF}) }
