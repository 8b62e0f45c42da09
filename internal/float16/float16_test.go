package float16

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"testing"
)

// TestRoundTripAllHalves converts every half to float32 and back: the
// encoding must survive unchanged, NaN payloads and the sign of zero
// included.
func TestRoundTripAllHalves(t *testing.T) {
	for h := range 1 << 16 {
		if got := Bits(Frombits(uint16(h))); got != uint16(h) {
			t.Fatalf("Bits(Frombits(%#04x)) = %#04x", h, got)
		}
	}
}

func TestKnownValues(t *testing.T) {
	tests := []struct {
		name string
		h    uint16
		f    float32
	}{
		{"one", 0x3c00, 1},
		{"minus two", 0xc000, -2},
		{"max", 0x7bff, Max},
		{"smallest subnormal", 0x0001, 0x1p-24},
		{"smallest normal", 0x0400, 0x1p-14},
		{"one third", 0x3555, 0.333251953125},
	}
	for _, tc := range tests {
		if got := Frombits(tc.h); got != tc.f {
			t.Errorf("%s: Frombits(%#04x) = %g, want %g", tc.name, tc.h, got, tc.f)
		}
		if got := Bits(tc.f); got != tc.h {
			t.Errorf("%s: Bits(%g) = %#04x, want %#04x", tc.name, tc.f, got, tc.h)
		}
	}
	// Ties go to even: 1 + 2⁻¹¹ lies halfway between 1 and 1 + 2⁻¹⁰.
	if got := Bits(1 + 0x1p-11); got != 0x3c00 {
		t.Errorf("Bits(1+2⁻¹¹) = %#04x, want 0x3c00 (tie to even)", got)
	}
	if got := Bits(65520); got != 0x7c00 {
		t.Errorf("Bits(65520) = %#04x, want +Inf 0x7c00", got)
	}
}

// TestPutDecodeMatchScalar checks the slice helpers against Bits and
// Frombits on random bit patterns, NaNs and infinities included.
func TestPutDecodeMatchScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	src := make([]float32, 1<<14)
	for i := range src {
		src[i] = math.Float32frombits(rng.Uint32())
	}
	buf := make([]byte, 2*len(src))
	Put(buf, src)
	back := make([]float32, len(src))
	Decode(back, buf)
	for i, x := range src {
		h := binary.LittleEndian.Uint16(buf[2*i:])
		if want := Bits(x); h != want {
			t.Fatalf("Put stored %#04x for %g, Bits gives %#04x", h, x, want)
		}
		if got, want := math.Float32bits(back[i]), math.Float32bits(Frombits(h)); got != want {
			t.Fatalf("Decode gave bits %#08x for half %#04x, Frombits gives %#08x", got, h, want)
		}
	}
}
