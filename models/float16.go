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
	exp := int(b>>23) & 0xff
	frac := b & 0x7fffff

	if exp == 0xff { // Inf or NaN
		if frac == 0 {
			return sign | float16ExpMask
		}
		h := uint16(frac >> 13)
		if h == 0 {
			h = 0x200 // the payload did not fit: quiet NaN
		}
		return sign | float16ExpMask | h
	}

	e := exp - 127 + 15 // the half's biased exponent
	switch {
	case e >= 0x1f:
		return sign | float16ExpMask // ≥ 2¹⁶: too large even before rounding
	case e >= 1:
		// Normal half: keep 10 of the 23 fraction bits and round on the
		// other 13. A carry out of the fraction increments the exponent,
		// which is exactly right, up to and including 0x7c00 (Inf).
		h := uint32(e)<<10 | frac>>13
		return sign | uint16(roundEven(h, frac&0x1fff, 0x1000))
	case e >= -10:
		// Subnormal half: the value in units of 2⁻²⁴ is the full
		// significand (implicit bit restored) shifted right by 14−e, with
		// 14 to 24 bits to round away. Rounding up from 0x3ff gives 0x400,
		// the smallest normal, again the right encoding.
		m := frac | 0x800000
		shift := uint(14 - e)
		rem := m & (1<<shift - 1)
		return sign | uint16(roundEven(m>>shift, rem, 1<<(shift-1)))
	default:
		return sign // below 2⁻²⁵, nearer to zero than to 2⁻²⁴
	}
}

// roundEven rounds the truncated value h up when the discarded bits rem are
// more than half a unit, or exactly half and h is odd.
func roundEven(h, rem, half uint32) uint32 {
	if rem > half || (rem == half && h&1 == 1) {
		return h + 1
	}
	return h
}

// Float16frombits returns the float32 value of the IEEE 754 binary16
// encoding h. Every half is exactly representable as a float32, so the
// conversion is exact; NaNs keep their sign and payload.
func Float16frombits(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h&float16ExpMask) >> 10
	frac := uint32(h & float16FracMask)
	switch {
	case exp == 0x1f: // Inf or NaN
		return math.Float32frombits(sign | 0x7f800000 | frac<<13)
	case exp != 0: // normal
		return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
	case frac == 0:
		return math.Float32frombits(sign)
	}
	// Subnormal: frac × 2⁻²⁴. Normalize so the leading one becomes the
	// implicit bit of a float32.
	e := uint32(127 - 14)
	for frac&0x400 == 0 {
		frac <<= 1
		e--
	}
	return math.Float32frombits(sign | e<<23 | (frac&float16FracMask)<<13)
}

// bfloat16frombits returns the float32 value of the bfloat16 encoding h,
// which is the top half of a float32.
func bfloat16frombits(h uint16) float32 {
	return math.Float32frombits(uint32(h) << 16)
}
