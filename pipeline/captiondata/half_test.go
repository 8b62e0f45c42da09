package captiondata

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/attend-go/attend/models/safetensors"
)

// TestHalves converts every binary16 pattern both ways.
func TestHalves(t *testing.T) {
	src := make([]byte, 2<<16)
	for h := range 1 << 16 {
		binary.LittleEndian.PutUint16(src[2*h:], uint16(h))
	}
	dst := make([]float32, 1<<16)
	decodeHalves(dst, src)
	back := make([]byte, len(src))
	bad := encodeHalves(back, dst)
	for h := range 1 << 16 {
		want := safetensors.Float16frombits(uint16(h))
		if math.Float32bits(dst[h]) != math.Float32bits(want) {
			t.Fatalf("half %#04x decodes to %v, want %v", h, dst[h], want)
		}
		if h&0x7c00 != 0x7c00 && binary.LittleEndian.Uint16(back[2*h:]) != uint16(h) {
			t.Fatalf("half %#04x does not survive the round trip", h)
		}
	}
	if bad != 0x7c00 {
		t.Errorf("first unstorable value at %#x, want 0x7c00 (+Inf)", bad)
	}
}

// BenchmarkDecodeHalves compares the lookup table with converting bit
// fields (safetensors.Float16frombits) on a 7×7×1280 record of ReLU6-like
// values.
func BenchmarkDecodeHalves(b *testing.B) {
	vals := fakeFeatures(nil, "x", 7*7*1280)
	src := make([]byte, 2*len(vals))
	encodeHalves(src, vals)
	dst := make([]float32, len(vals))
	b.Run("table", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			decodeHalves(dst, src)
		}
	})
	b.Run("bits", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			for i := range dst {
				dst[i] = safetensors.Float16frombits(binary.LittleEndian.Uint16(src[2*i:]))
			}
		}
	})
}
