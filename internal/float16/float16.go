// Package float16 converts between float32 and IEEE 754 binary16
// ("half"), the 16-bit float of safetensors' F16 and ggml's f16 tensors
// and block scales. Frombits is exact (every half is a float32); Bits
// rounds to the nearest half, ties to even, as IEEE 754, numpy's
// astype(float16) and ggml's GGML_FP32_TO_FP16 do. The one difference
// from ggml: a NaN keeps its payload here, where ggml writes 0x7e00.
package float16

import (
	"encoding/binary"
	"math"
)

// IEEE 754 binary16 ("half") layout: 1 sign bit, 5 exponent bits (bias 15),
// 10 fraction bits. Finite halves span ±65504; the smallest subnormal is
// 2⁻²⁴ ≈ 5.96e-8.
// Max is the largest finite half, 65504.
const Max = 65504

const (
	expMask  = 0x7c00
	fracMask = 0x03ff
)

// Bits returns the IEEE 754 binary16 encoding of f, rounded to the
// nearest half with ties to even, the rounding of IEEE 754 and of
// numpy's astype(float16).
//
// Magnitudes from 65520 up round to ±Inf; magnitudes up to 2⁻²⁵ round to
// ±0, and those in between that are below 2⁻¹⁴ become subnormal halves.
// The sign of zero is kept. A NaN stays a NaN with its sign and the top 10
// bits of its payload (the quiet bit among them), so every half survives
// Bits(Frombits(h)) unchanged; a NaN whose payload lives only
// in the low bits becomes the quiet NaN.
func Bits(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	a := b & 0x7fffffff
	if inRange(a) {
		return sign | normal(a)
	}
	return sign | rare(a)
}

// Put stores src in dst as little-endian halves, as Bits would one by
// one, with the common case inlined.
func Put(dst []byte, src []float32) {
	dst = dst[:2*len(src)]
	for i, f := range src {
		b := math.Float32bits(f)
		a := b & 0x7fffffff
		var h uint16
		if inRange(a) {
			h = normal(a)
		} else {
			h = rare(a)
		}
		binary.LittleEndian.PutUint16(dst[2*i:], uint16(b>>16)&0x8000|h)
	}
}

// inRange reports whether the float32 magnitude a (its bits) is in
// [2⁻¹⁴, 2¹⁶), where it rounds to a normal half or, from 65520 on, to Inf.
func inRange(a uint32) bool { return a-0x38800000 < 0x47800000-0x38800000 }

// normal returns the unsigned half for a float32 magnitude a in
// [2⁻¹⁴, 2¹⁶). It rebiases the exponent from 127 to 15 and rounds away the
// low 13 fraction bits: adding 0xfff, plus 1 when the kept part is odd,
// carries into bit 13 exactly when rounding to nearest even goes up. A
// carry out of the fraction increments the exponent, which is right, up to
// and including 0x7c00 (Inf) from 65520 on.
func normal(a uint32) uint16 {
	return uint16((a - (127-15)<<23 + 0xfff + a>>13&1) >> 13)
}

// rare returns the unsigned half for a float32 magnitude a outside
// [2⁻¹⁴, 2¹⁶): zero, subnormal, overflow, Inf or NaN.
func rare(a uint32) uint16 {
	switch {
	case a < 0x38800000: // a subnormal half or zero
		// Adding 0.5 puts 2⁻²⁴, the subnormal unit, at the last fraction
		// bit of the float32 sum, so the FPU's own round-to-nearest-even
		// does the rounding; the fraction bits are then the half's. The
		// conversion forces rounding to float32 (no fused operations).
		v := float32(math.Float32frombits(a) + 0.5)
		return uint16(math.Float32bits(v) - 0x3f000000) // 0.5's bits
	case a <= 0x7f800000: // ≥ 2¹⁶: overflow, or Inf
		return expMask
	}
	h := uint16(a>>13) & fracMask // NaN: keep what fits of the payload
	if h == 0 {
		h = 0x200 // nothing did: quiet NaN
	}
	return expMask | h
}

// Frombits returns the float32 value of the IEEE 754 binary16
// encoding h. Every half is exactly representable as a float32, so the
// conversion is exact; NaNs keep their sign and payload.
func Frombits(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	b := uint32(h&0x7fff) << 13 // exponent and fraction, float32-aligned
	switch b & 0x0f800000 {
	case 0x0f800000: // Inf or NaN: exponent 31 becomes 255
		return math.Float32frombits(sign | b | 0x7f800000)
	case 0: // zero or subnormal: frac × 2⁻²⁴
		// Give the bits the exponent of 2⁻¹⁴ and subtract its implicit
		// one: exact, since the difference is a multiple of 2⁻²⁴.
		v := math.Float32frombits(b+(127-14)<<23) - 0x1p-14
		return math.Float32frombits(sign | math.Float32bits(v))
	default: // normal: rebias the exponent from 15 to 127
		return math.Float32frombits(sign | (b + (127-15)<<23))
	}
}

// Decode stores in dst the float32 values of the first len(dst)
// little-endian halves in src, as Frombits would one by one; src must
// hold at least 2*len(dst) bytes.
func Decode(dst []float32, src []byte) {
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = Frombits(binary.LittleEndian.Uint16(src[2*i:]))
	}
}
