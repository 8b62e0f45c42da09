package whisper

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestCrossStep compares the one-pass cross-attention of a decoding step
// (crossStep, online softmax) with the two products of crossAttend, with
// the assembly kernels and with the Go loops, on tiny's shape and on
// shapes that leave ragged blocks (frames not a multiple of 16 or 4) and
// odd head counts to the Go loops; queries from gentle to sharp (scale
// 100: the softmax's maximum moves from block to block).
func TestCrossStep(t *testing.T) {
	cases := []struct {
		n, heads, frames int
	}{
		{384, 6, 1500},
		{64, 2, 50},
		{128, 4, 16},
		{48, 3, 37},
	}
	paths := []bool{false}
	if useCrossAVX2 {
		paths = append(paths, true)
	}
	defer func(v bool) { useCrossAVX2 = v }(useCrossAVX2)
	for _, c := range cases {
		d := Dims{NMels: 8, NAudioCtx: c.frames, NAudioState: c.n, NAudioHead: c.heads, NAudioLayer: 1,
			NVocab: 51864, NTextCtx: 4, NTextState: c.n, NTextHead: c.heads, NTextLayer: 1}
		m, err := newModel(d, randomTensors(d, 3))
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(uint64(c.n), 9))
		audio := &AudioFeatures{Data: make([]float32, c.frames*c.n), Frames: c.frames, Width: c.n}
		for i := range audio.Data {
			audio.Data[i] = float32(r.NormFloat64())
		}
		a := newCrossAudio(audio)
		b := &m.decBlocks[0]
		for _, sharp := range []float64{1, 10, 100} {
			q := make([]float32, c.n)
			for i := range q {
				q[i] = float32(r.NormFloat64() * sharp)
			}
			want := make([]float32, c.n)
			var cs crossScratch
			crossAttend(want, q, 1, b, a, c.heads, &cs, func(int, []float32) {}) // keep: the two products
			for _, asm := range paths {
				useCrossAVX2 = asm
				name := fmt.Sprintf("n=%d heads=%d frames=%d sharp=%g asm=%v", c.n, c.heads, c.frames, sharp, asm)
				got := make([]float32, c.n)
				var cs crossScratch
				crossStep(got, q, b, a, c.heads, &cs)
				var worst, scale float64
				for i := range got {
					worst = max(worst, math.Abs(float64(got[i]-want[i])))
					scale = max(scale, math.Abs(float64(want[i])))
				}
				if worst > 1e-5*max(1, scale) || math.IsNaN(worst) {
					t.Errorf("%s: one pass and two products differ by %.3g (outputs up to %.3g)", name, worst, scale)
				}
			}
		}
	}
}

// BenchmarkCrossStep times one layer's cross-attention for one query row
// over tiny's 1,500 frames: crossStep, and the two products it replaces.
func BenchmarkCrossStep(b *testing.B) {
	for _, twoPass := range []bool{false, true} {
		b.Run(fmt.Sprintf("two-products=%v", twoPass), func(b *testing.B) {
			d := tinyDims
			d.NAudioLayer, d.NTextLayer = 1, 1
			m, err := newModel(d, randomTensors(d, 3))
			if err != nil {
				b.Fatal(err)
			}
			r := rand.New(rand.NewPCG(1, 9))
			audio := &AudioFeatures{Data: make([]float32, d.NAudioCtx*d.NTextState), Frames: d.NAudioCtx, Width: d.NTextState}
			for i := range audio.Data {
				audio.Data[i] = float32(r.NormFloat64())
			}
			a := newCrossAudio(audio)
			q := make([]float32, d.NTextState)
			for i := range q {
				q[i] = float32(r.NormFloat64())
			}
			o := make([]float32, d.NTextState)
			var cs crossScratch
			var keep func(int, []float32)
			if twoPass {
				keep = func(int, []float32) {}
			}
			b.ReportAllocs()
			defer reportCPU(b, processCPU())
			b.ResetTimer()
			for range b.N {
				crossAttend(o, q, 1, &m.decBlocks[0], a, d.NTextHead, &cs, keep)
			}
		})
	}
}
