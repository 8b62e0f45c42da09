package attention

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzMaskedSoftmax feeds arbitrary finite scores, masks, windows and
// sharpening to the softmax every mechanism shares, and its backward pass:
// the weights must be finite, non-negative, exactly 0 outside the valid
// positions and sum to 1 (or be all 0 when nothing is valid), and the
// gradient of a bounded upstream gradient must be finite.
func FuzzMaskedSoftmax(f *testing.F) {
	f.Add([]byte{0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64}, uint16(0b101), uint8(0), uint8(3), uint8(10))
	f.Add([]byte{255, 255, 127, 127, 255, 255, 127, 255}, uint16(0b11), uint8(0), uint8(2), uint8(200)) // ±MaxFloat32
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint16(0), uint8(1), uint8(4), uint8(1))
	f.Fuzz(func(t *testing.T, raw []byte, maskBits uint16, lo, hi, beta uint8) {
		T := min(len(raw)/4, 16)
		if T == 0 {
			return
		}
		e := make([]float32, T)
		for i := range e {
			x := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				x = 0
			}
			e[i] = x
		}
		mask := make([]float32, T)
		for i := range mask {
			mask[i] = float32(maskBits >> i & 1)
		}
		l, h := int(lo)%(T+1), int(hi)%(T+1)
		if l > h {
			l, h = h, l
		}
		b := float32(beta)/16 + 1e-3 // β in (0, 16]
		alpha := make([]float32, T)
		softmaxRow(alpha, e, mask, l, h, b)
		var sum float64
		valid := 0
		for i, a := range alpha {
			if math.IsNaN(float64(a)) || a < 0 || a > 1 {
				t.Fatalf("α[%d] = %v (e %v, mask %v, window [%d, %d), β %v)", i, a, e, mask, l, h, b)
			}
			if (i < l || i >= h || mask[i] == 0) && a != 0 {
				t.Fatalf("α[%d] = %v outside the valid positions", i, a)
			}
			if i >= l && i < h && mask[i] != 0 {
				valid++
			}
			sum += float64(a)
		}
		if valid == 0 && sum != 0 || valid > 0 && math.Abs(sum-1) > 1e-5 {
			t.Fatalf("weights sum to %v with %d valid positions", sum, valid)
		}
		// A bounded upstream gradient: huge ones overflow any backward pass.
		dAlpha, de := make([]float32, T), make([]float32, T)
		for i, x := range e {
			dAlpha[i] = 1e3 * float32(math.Tanh(float64(x)))
		}
		softmaxBackwardRow(de, alpha, dAlpha, b)
		for i, d := range de {
			if math.IsNaN(float64(d)) {
				t.Fatalf("de[%d] = NaN", i)
			}
		}
	})
}
