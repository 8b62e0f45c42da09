package audio

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestConvolveMatchesDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, sizes := range [][2]int{{1, 1}, {7, 3}, {100, 37}, {513, 512}} {
		x, h := make([]float32, sizes[0]), make([]float32, sizes[1])
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		for i := range h {
			h[i] = float32(r.NormFloat64())
		}
		got := Convolve(x, h)
		if len(got) != len(x)+len(h)-1 {
			t.Fatalf("%v: length %d", sizes, len(got))
		}
		for n := range got {
			var want float64
			for k := range h {
				if i := n - k; i >= 0 && i < len(x) {
					want += float64(h[k]) * float64(x[i])
				}
			}
			if math.Abs(float64(got[n])-want) > 1e-4 {
				t.Fatalf("%v: y[%d] = %g, want %g", sizes, n, got[n], want)
			}
		}
	}
	if Convolve(nil, []float32{1}) != nil {
		t.Error("Convolve of nothing is not nil")
	}
}

func TestImpulseResponse(t *testing.T) {
	tests := []struct{ rt60, drr float64 }{{0.2, 0}, {0.5, 6}, {0.8, 15}}
	for _, tc := range tests {
		h := ImpulseResponse(tc.rt60, tc.drr, noiseRate, rand.New(rand.NewPCG(7, 8)))
		if want := int(math.Ceil(tc.rt60 * noiseRate)); len(h) != want {
			t.Errorf("RT60 %g: %d taps, want %d", tc.rt60, len(h), want)
		}
		var tail float64
		for _, v := range h[1:] {
			tail += float64(v) * float64(v)
		}
		if got := db(float64(h[0]) * float64(h[0]) / tail); math.Abs(got-tc.drr) > 0.01 {
			t.Errorf("RT60 %g: DRR %.3f dB, want %g", tc.rt60, got, tc.drr)
		}
		// Schroeder backward integration of the tail; the slope between
		// −5 and −25 dB, extrapolated to −60 dB, is the RT60 (ISO 3382's T20).
		edc := make([]float64, len(h))
		var s float64
		for i := len(h) - 1; i >= 1; i-- {
			s += float64(h[i]) * float64(h[i])
			edc[i] = s
		}
		var t5, t25 int
		for i := 1; i < len(h); i++ {
			level := db(edc[i] / edc[1])
			if t5 == 0 && level <= -5 {
				t5 = i
			}
			if level <= -25 {
				t25 = i
				break
			}
		}
		got := 3 * float64(t25-t5) / noiseRate
		if math.Abs(got-tc.rt60)/tc.rt60 > 0.1 {
			t.Errorf("RT60 %g: measured T20 %.3f s", tc.rt60, got)
		}
	}
}
