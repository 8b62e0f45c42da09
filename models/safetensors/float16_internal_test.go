package safetensors

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// TestPutFloat16sMatchesFloat16bits checks the batch encoder Write uses
// against Float16bits: on every half's value and its float32 neighbours
// (which straddle every rounding boundary), on both signs, and on random
// bit patterns, NaNs and infinities included.
func TestPutFloat16sMatchesFloat16bits(t *testing.T) {
	var src []float32
	for h := range 1 << 16 {
		x := Float16frombits(uint16(h))
		src = append(src, x, math.Nextafter32(x, float32(math.Inf(1))), math.Nextafter32(x, float32(math.Inf(-1))))
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 1 << 16 {
		src = append(src, math.Float32frombits(rng.Uint32()))
	}
	dst := make([]byte, 2*len(src))
	putFloat16s(dst, src)
	for i, x := range src {
		if got, want := binary.LittleEndian.Uint16(dst[2*i:]), Float16bits(x); got != want {
			t.Fatalf("putFloat16s stored %#04x for %g (bits %#08x), Float16bits gives %#04x", got, x, math.Float32bits(x), want)
		}
	}
}

// TestOverflowsFloat16 checks Write's overflow test against the conversion
// itself around the threshold and at the extremes.
func TestOverflowsFloat16(t *testing.T) {
	edge := float32(65520)
	for _, x := range []float32{
		0, 1, 65504, math.Nextafter32(edge, 0), edge, math.Nextafter32(edge, math.MaxFloat32), 1e10, math.MaxFloat32,
		float32(math.Inf(1)), float32(math.NaN()),
	} {
		for _, v := range []float32{x, -x} {
			h := Float16bits(v)
			want := h&0x7fff == 0x7c00 && !math.IsInf(float64(v), 0)
			if got := overflowsFloat16(v); got != want {
				t.Errorf("overflowsFloat16(%g) = %v, want %v (half %#04x)", v, got, want, h)
			}
		}
	}
}
