package ggml

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/attend-go/attend/internal/float16"
)

// half returns the float32 value of the little-endian half at b.
func half(b []byte) float32 { return float16.Frombits(binary.LittleEndian.Uint16(b)) }

// Float32s returns the tensor's elements as float32 in ggml order (row
// by row, ne0 fastest), dequantized exactly as ggml's reference
// dequantize_row_* do. It fails if the tensor is malformed.
func (t *Tensor) Float32s() ([]float32, error) {
	if _, err := t.check(); err != nil {
		return nil, err
	}
	dst := make([]float32, t.Len())
	DequantizeRow(dst, t.Data, t.Type)
	return dst, nil
}

// DequantizeRow stores in dst the len(dst) values encoded in src as type
// typ, exactly as ggml's dequantize_row_* (ggml/src/ggml-quants.c) and
// its f16 and f32 conversions do; for a block type each product d·q is
// rounded to float32 before m is added (no fused multiply-add). Block
// types run in assembly where MatVec does (FastMatVec), bit for bit the
// same. src may
// hold any whole number of rows, or all of a tensor's data.
//
// It panics if typ is unsupported, len(dst) is not a whole number of
// blocks, or src does not hold exactly the bytes of len(dst) values: those
// are programming errors (a Tensor from Read is well formed).
func DequantizeRow(dst []float32, src []byte, typ Type) {
	n, err := typ.RowBytes(len(dst))
	if err != nil {
		panic(err)
	}
	if len(src) != n {
		panic(fmt.Sprintf("ggml: DequantizeRow: %d %v values need %d bytes, src has %d", len(dst), typ, n, len(src)))
	}
	switch typ {
	case F32:
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
		}
	case F16:
		tab := halfTable() // what float16.Frombits gives, 4× faster
		for i := range dst {
			dst[i] = tab[binary.LittleEndian.Uint16(src[2*i:])]
		}
	default:
		if dequantizeFast(dst, src, typ) {
			return
		}
		bb := typ.BlockBytes()
		for i := 0; i < len(dst); i += BlockLen {
			dequantizeBlock((*[BlockLen]float32)(dst[i:]), src[i/BlockLen*bb:][:bb], typ)
		}
	}
}

// dequantizeBlock decodes one block b of type typ into y.
func dequantizeBlock(y *[BlockLen]float32, b []byte, typ Type) {
	const h = BlockLen / 2
	switch typ {
	case Q4_0: // d, qs[16]; x = d·(q − 8)
		d, qs := half(b), b[2:18]
		for j := range h {
			y[j] = float32(int(qs[j]&0x0f)-8) * d
			y[j+h] = float32(int(qs[j]>>4)-8) * d
		}
	case Q4_1: // d, m, qs[16]; x = d·q + m
		d, m, qs := half(b), half(b[2:]), b[4:20]
		for j := range h {
			y[j] = float32(float32(qs[j]&0x0f)*d) + m
			y[j+h] = float32(float32(qs[j]>>4)*d) + m
		}
	case Q5_0: // d, qh[4], qs[16]; x = d·(q − 16), q = low nibble | high bit << 4
		d, qh, qs := half(b), binary.LittleEndian.Uint32(b[2:]), b[6:22]
		for j := range h {
			x0 := int(qs[j]&0x0f | byte(qh>>j<<4)&0x10)
			x1 := int(qs[j]>>4 | byte(qh>>(j+12))&0x10)
			y[j] = float32(x0-16) * d
			y[j+h] = float32(x1-16) * d
		}
	case Q5_1: // d, m, qh[4], qs[16]; x = d·q + m
		d, m, qh, qs := half(b), half(b[2:]), binary.LittleEndian.Uint32(b[4:]), b[8:24]
		for j := range h {
			x0 := qs[j]&0x0f | byte(qh>>j<<4)&0x10
			x1 := qs[j]>>4 | byte(qh>>(j+12))&0x10
			y[j] = float32(float32(x0)*d) + m
			y[j+h] = float32(float32(x1)*d) + m
		}
	case Q8_0: // d, qs[32] int8; x = d·q
		d, qs := half(b), b[2:34]
		for j := range BlockLen {
			y[j] = float32(int8(qs[j])) * d
		}
	}
}
