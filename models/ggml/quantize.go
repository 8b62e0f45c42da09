package ggml

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/attend-go/attend/internal/float16"
)

// Quantize encodes src as type typ and returns the bytes a tensor of that
// type holds: for the block types, bit for bit what ggml's reference
// quantizers quantize_row_*_ref (ggml/src/ggml-quants.c) write, which is
// what whisper.cpp's quantize tool uses; for f16, halves rounded to
// nearest even (GGML_FP32_TO_FP16); for f32, the values as they are.
// len(src) must be a whole number of 32-element blocks for a block type:
// whole rows of a tensor, or all of its data.
//
// Every float32 operation is rounded as C's are without contraction into
// fused multiply-adds. A NaN in src gives an unspecified (but
// deterministic) block, as in ggml.
func Quantize(typ Type, src []float32) ([]byte, error) {
	n, err := typ.RowBytes(len(src))
	if err != nil {
		return nil, err
	}
	dst := make([]byte, n)
	switch typ {
	case F32:
		for i, v := range src {
			binary.LittleEndian.PutUint32(dst[4*i:], math.Float32bits(v))
		}
	case F16:
		float16.Put(dst, src)
	default:
		bb := typ.BlockBytes()
		for i := 0; i < len(src); i += BlockLen {
			quantizeBlock(dst[i/BlockLen*bb:][:bb], (*[BlockLen]float32)(src[i:]), typ)
		}
	}
	return dst, nil
}

func putHalf(b []byte, v float32) { binary.LittleEndian.PutUint16(b, float16.Bits(v)) }

// quantizeBlock encodes the block x as typ into b, as quantize_row_*_ref.
func quantizeBlock(b []byte, x *[BlockLen]float32, typ Type) {
	const h = BlockLen / 2
	switch typ {
	case Q4_0, Q5_0:
		// d = max/−2^(bits−1), where max is the value of largest
		// magnitude (the first one); q = min(2^bits−1, trunc(x/d + 2^(bits−1) + ½)).
		var amax, max float32
		for _, v := range x {
			if a := abs32(v); amax < a {
				amax, max = a, v
			}
		}
		bias, top := float32(8), 15
		if typ == Q5_0 {
			bias, top = 16, 31
		}
		d := max / -bias
		id := inverse(d)
		putHalf(b, d)
		var qh uint32
		for j := range h {
			x0 := float32(x[j] * id)
			x1 := float32(x[j+h] * id)
			xi0 := uint8(min(top, int(int8(x0+(bias+0.5)))))
			xi1 := uint8(min(top, int(int8(x1+(bias+0.5)))))
			if typ == Q4_0 {
				b[2+j] = xi0 | xi1<<4
				continue
			}
			b[6+j] = xi0&0x0f | (xi1&0x0f)<<4
			qh |= uint32(xi0&0x10)>>4<<j | uint32(xi1&0x10)>>4<<(j+h)
		}
		if typ == Q5_0 {
			binary.LittleEndian.PutUint32(b[2:], qh)
		}
	case Q4_1, Q5_1:
		// d = (max − min)/(2^bits − 1), m = min; q = trunc((x − min)/d + ½).
		lo, hi := float32(math.MaxFloat32), float32(-math.MaxFloat32)
		for _, v := range x {
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
		}
		levels := float32(15)
		if typ == Q5_1 {
			levels = 31
		}
		d := float32(hi-lo) / levels
		id := inverse(d)
		putHalf(b, d)
		putHalf(b[2:], lo)
		var qh uint32
		for j := range h {
			x0 := float32(float32(x[j]-lo) * id)
			x1 := float32(float32(x[j+h]-lo) * id)
			if typ == Q4_1 {
				xi0 := uint8(min(15, int(int8(x0+0.5))))
				xi1 := uint8(min(15, int(int8(x1+0.5))))
				b[4+j] = xi0 | xi1<<4
				continue
			}
			xi0, xi1 := uint8(x0+0.5), uint8(x1+0.5)
			b[8+j] = xi0&0x0f | (xi1&0x0f)<<4
			qh |= uint32(xi0&0x10)>>4<<j | uint32(xi1&0x10)>>4<<(j+h)
		}
		if typ == Q5_1 {
			binary.LittleEndian.PutUint32(b[4:], qh)
		}
	case Q8_0:
		// d = max|x|/127; q = round(x/d), halves away from zero.
		var amax float32
		for _, v := range x {
			if a := abs32(v); !(amax > a) { // MAX(amax, a)
				amax = a
			}
		}
		d := amax / 127
		id := inverse(d)
		putHalf(b, d)
		for j, v := range x {
			b[2+j] = byte(int8(math.Round(float64(float32(v * id)))))
		}
	default:
		panic(fmt.Sprintf("ggml: quantizeBlock: %v is not a block type", typ))
	}
}

// inverse returns 1/d, or 0 for d = 0, as the reference quantizers' id.
func inverse(d float32) float32 {
	if d != 0 {
		return 1 / d
	}
	return 0
}

func abs32(v float32) float32 { return math.Float32frombits(math.Float32bits(v) &^ (1 << 31)) }
