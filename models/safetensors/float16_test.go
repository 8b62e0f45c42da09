package safetensors_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// TestFloat16RoundTripAllHalves converts every one of the 65536 halves to
// float32 and back: the encoding must survive unchanged, NaN payloads and
// the sign of zero included.
func TestFloat16RoundTripAllHalves(t *testing.T) {
	for h := range 1 << 16 {
		f := safetensors.Float16frombits(uint16(h))
		if got := safetensors.Float16bits(f); got != uint16(h) {
			t.Fatalf("Float16bits(Float16frombits(%#04x) = %g) = %#04x", h, f, got)
		}
		isNaN := h&0x7c00 == 0x7c00 && h&0x3ff != 0
		if math.IsNaN(float64(f)) != isNaN {
			t.Fatalf("Float16frombits(%#04x) = %g, NaN is %v, want %v", h, f, !isNaN, isNaN)
		}
		if math.Signbit(float64(f)) != (h&0x8000 != 0) {
			t.Fatalf("Float16frombits(%#04x) = %g has the wrong sign", h, f)
		}
	}
}

func TestFloat16frombits(t *testing.T) {
	tests := []struct {
		name string
		h    uint16
		want float32
	}{
		{"zero", 0x0000, 0},
		{"one", 0x3c00, 1},
		{"minus two", 0xc000, -2},
		{"one third", 0x3555, 0.333251953125},
		{"pi", 0x4248, 3.140625},
		{"largest finite", 0x7bff, 65504},
		{"smallest normal", 0x0400, 0x1p-14},
		{"smallest subnormal", 0x0001, 0x1p-24},
		{"largest subnormal", 0x03ff, 0x3ffp-24},
		{"negative subnormal", 0x8200, -0x200p-24},
		{"plus infinity", 0x7c00, float32(math.Inf(1))},
		{"minus infinity", 0xfc00, float32(math.Inf(-1))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := safetensors.Float16frombits(tt.h); got != tt.want {
				t.Errorf("Float16frombits(%#04x) = %g, want %g", tt.h, got, tt.want)
			}
		})
	}
	if got := safetensors.Float16frombits(0x8000); got != 0 || !math.Signbit(float64(got)) {
		t.Errorf("Float16frombits(0x8000) = %g, want -0", got)
	}
	if got := math.Float32bits(safetensors.Float16frombits(0x7e01)); got != 0x7fc02000 {
		t.Errorf("Float16frombits(0x7e01) has bits %#08x, want the NaN 0x7fc02000", got)
	}
}

func TestFloat16bits(t *testing.T) {
	tests := []struct {
		name string
		f    float32
		want uint16
	}{
		{"zero", 0, 0x0000},
		{"negative zero", float32(math.Copysign(0, -1)), 0x8000},
		{"one", 1, 0x3c00},
		{"minus two", -2, 0xc000},
		{"one tenth", 0.1, 0x2e66},
		{"one third", 1.0 / 3, 0x3555},
		{"pi", math.Pi, 0x4248},
		{"largest finite", 65504, 0x7bff},
		{"just below the overflow threshold", math.Nextafter32(65520, 0), 0x7bff},
		{"overflow threshold ties to even Inf", 65520, 0x7c00},
		{"large", 1e6, 0x7c00},
		{"max float32", math.MaxFloat32, 0x7c00},
		{"minus max float32", -math.MaxFloat32, 0xfc00},
		{"plus infinity", float32(math.Inf(1)), 0x7c00},
		{"minus infinity", float32(math.Inf(-1)), 0xfc00},
		{"tie 1+2^-11 to even", 1 + 0x1p-11, 0x3c00},
		{"tie 1+3*2^-11 to even", 1 + 0x3p-11, 0x3c02},
		{"just above tie rounds up", math.Nextafter32(1+0x1p-11, 2), 0x3c01},
		{"smallest normal", 0x1p-14, 0x0400},
		{"largest subnormal", 0x3ffp-24, 0x03ff},
		{"tie between largest subnormal and smallest normal", 0x7ffp-25, 0x0400},
		{"smallest subnormal", 0x1p-24, 0x0001},
		{"half the smallest subnormal ties to zero", 0x1p-25, 0x0000},
		{"just above half the smallest subnormal", math.Nextafter32(0x1p-25, 1), 0x0001},
		{"one and a half smallest subnormals ties to two", 0x3p-25, 0x0002},
		{"negative subnormal", -0x1p-24, 0x8001},
		{"tiny underflows to zero", 1e-8, 0x0000},
		{"tiny negative underflows to minus zero", -1e-8, 0x8000},
		{"float32 subnormal", 0x1p-149, 0x0000},
		{"quiet NaN", float32(math.NaN()), 0x7e00},
		{"negative NaN", math.Float32frombits(0xffc00000), 0xfe00},
		{"NaN payload kept", math.Float32frombits(0x7f802000), 0x7c01},
		{"NaN payload in low bits only", math.Float32frombits(0x7f800001), 0x7e00},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := safetensors.Float16bits(tt.f); got != tt.want {
				t.Errorf("Float16bits(%g) = %#04x, want %#04x", tt.f, got, tt.want)
			}
		})
	}
}

// TestFloat16bitsRoundingBoundaries checks every rounding decision there
// is: for each pair of adjacent non-negative halves a < b, the values a and
// b map to themselves, the float32 just below their midpoint to a, the one
// just above to b, and the midpoint to whichever is even. The last pair is
// 65504 and 2¹⁶, the first value past the largest half, which rounds to
// Inf. Since conversion is monotonic (checked below) and odd, this pins
// down the result for every float32.
func TestFloat16bitsRoundingBoundaries(t *testing.T) {
	for h := uint16(0); h <= 0x7bff; h++ {
		a := float64(safetensors.Float16frombits(h))
		b := float64(safetensors.Float16frombits(h + 1))
		if h == 0x7bff {
			b = 65536
		}
		mid := (a + b) / 2
		m := float32(mid)
		if float64(m) != mid {
			t.Fatalf("midpoint %g of halves %#04x and %#04x is not a float32", mid, h, h+1)
		}
		even := h
		if h&1 == 1 {
			even = h + 1
		}
		for _, c := range []struct {
			x    float32
			want uint16
		}{
			{float32(a), h},
			{math.Nextafter32(m, 0), h},
			{m, even},
			{math.Nextafter32(m, math.MaxFloat32), h + 1},
		} {
			if got := safetensors.Float16bits(c.x); got != c.want {
				t.Fatalf("Float16bits(%g) = %#04x, want %#04x (between %#04x and %#04x)", c.x, got, c.want, h, h+1)
			}
			if got := safetensors.Float16bits(-c.x); got != c.want|0x8000 {
				t.Fatalf("Float16bits(%g) = %#04x, want %#04x", -c.x, got, c.want|0x8000)
			}
		}
	}
}

// TestFloat16bitsMonotonic walks the non-negative float32s in order with a
// prime stride and random offsets and checks the halves never decrease.
func TestFloat16bitsMonotonic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	prev := uint16(0)
	for b := uint32(0); b < 0x7f800000; b += 1009 + rng.Uint32N(64) {
		h := safetensors.Float16bits(math.Float32frombits(b))
		if h < prev {
			t.Fatalf("Float16bits(%g) = %#04x after %#04x", math.Float32frombits(b), h, prev)
		}
		prev = h
	}
	if prev != 0x7c00 {
		t.Fatalf("walk ended at %#04x, want Inf", prev)
	}
}

func BenchmarkFloat16bits(b *testing.B) {
	src := make([]float32, 4096)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range src {
		src[i] = float32(rng.NormFloat64())
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(src)) * 4)
	var sink uint16
	for b.Loop() {
		for _, v := range src {
			sink ^= safetensors.Float16bits(v)
		}
	}
	_ = sink
}

func BenchmarkFloat16frombits(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(1 << 16 * 2)
	var sink float32
	for b.Loop() {
		for h := range 1 << 16 {
			sink += safetensors.Float16frombits(uint16(h))
		}
	}
	_ = sink
}
