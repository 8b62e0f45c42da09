package safetensors

import (
	"math"

	"github.com/attend-go/attend/internal/float16"
)

// float16Max is the largest finite half.
const float16Max = float16.Max

// Float16bits returns the IEEE 754 binary16 encoding of f, rounded to the
// nearest half with ties to even, the rounding of IEEE 754 and of
// numpy's astype(float16).
//
// Magnitudes from 65520 up round to ±Inf; magnitudes up to 2⁻²⁵ round to
// ±0, and those in between that are below 2⁻¹⁴ become subnormal halves.
// The sign of zero is kept. A NaN stays a NaN with its sign and the top 10
// bits of its payload (the quiet bit among them), so every half survives
// Float16bits(Float16frombits(h)) unchanged; a NaN whose payload lives only
// in the low bits becomes the quiet NaN. The conversion itself lives in
// internal/float16, shared with the ggml reader.
func Float16bits(f float32) uint16 { return float16.Bits(f) }

// Float16frombits returns the float32 value of the IEEE 754 binary16
// encoding h. Every half is exactly representable as a float32, so the
// conversion is exact; NaNs keep their sign and payload.
func Float16frombits(h uint16) float32 { return float16.Frombits(h) }

// putFloat16s stores src in dst as little-endian halves, as Float16bits
// would one by one.
func putFloat16s(dst []byte, src []float32) { float16.Put(dst, src) }

// bfloat16frombits returns the float32 value of the bfloat16 encoding h,
// which is the top half of a float32.
func bfloat16frombits(h uint16) float32 {
	return math.Float32frombits(uint32(h) << 16)
}
