package models

import "math"

// IEEE 754 binary16 ("half") layout: 1 sign bit, 5 exponent bits (bias 15),
// 10 fraction bits. Finite halves span ±65504; the smallest subnormal is
// 2⁻²⁴ ≈ 5.96e-8.
const (
	float16ExpMask  = 0x7c00
	float16FracMask = 0x03ff
	float16Max      = 65504 // largest finite half
)

// Float16bits returns the IEEE 754 binary16 encoding of f, rounded to the
// nearest half with ties to even, the rounding of IEEE 754 and of
// numpy's astype(float16).
//
// Magnitudes from 65520 up round to ±Inf; magnitudes up to 2⁻²⁵ round to
// ±0, and those in between that are below 2⁻¹⁴ become subnormal halves.
// The sign of zero is kept. A NaN stays a NaN with its sign and the top 10
// bits of its payload (the quiet bit among them), so every half survives
// Float16bits(Float16frombits(h)) unchanged; a NaN whose payload lives only
// in the low bits becomes the quiet NaN.
func Float16bits(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	b &= 0x7fffffff // |f|
	switch {
	case b >= 0x47800000: // |f| ≥ 2¹⁶, Inf or NaN
		if b <= 0x7f800000 {
			return sign | float16ExpMask // overflow or Inf
		}
		h := uint16(b>>13) & float16FracMask
		if h == 0 {
			h = 0x200 // the payload did not fit: quiet NaN
		}
		return sign | float16ExpMask | h
	case b >= 0x38800000: // |f| ≥ 2⁻¹⁴: a normal half, or Inf after rounding
		// Rebias the exponent from 127 to 15 and round away the low 13
		// fraction bits: adding 0xfff, plus 1 when the kept part is odd,
		// carries into bit 13 exactly when rounding to nearest even goes
		// up. A carry out of the fraction increments the exponent, which
		// is right, up to and including 0x7c00 (Inf) from 65520 on.
		odd := b >> 13 & 1
		return sign | uint16((b-(127-15)<<23+0xfff+odd)>>13)
	default: // a subnormal half or zero
		// Adding 0.5 puts 2⁻²⁴, the subnormal unit, at the last fraction
		// bit of the float32 sum, so the FPU's own round-to-nearest-even
		// does the rounding; the fraction bits are then the half's. The
		// conversion forces rounding to float32 (no fused operations).
		v := float32(math.Float32frombits(b) + 0.5)
		return sign | uint16(math.Float32bits(v)-math.Float32bits(0.5))
	}
}

// Float16frombits returns the float32 value of the IEEE 754 binary16
// encoding h. Every half is exactly representable as a float32, so the
// conversion is exact; NaNs keep their sign and payload.
func Float16frombits(h uint16) float32 {
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

// bfloat16frombits returns the float32 value of the bfloat16 encoding h,
// which is the top half of a float32.
func bfloat16frombits(h uint16) float32 {
	return math.Float32frombits(uint32(h) << 16)
}
