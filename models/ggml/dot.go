package ggml

import (
	"encoding/binary"
	"fmt"
	"math"
)

// DotRow returns the dot product of the row encoded in row as type typ
// with x, whose length is the row's: Σ_i w_i·x_i with w the row's
// dequantized values (DequantizeRow), without materializing w. A block
// type sums q_i·x_i over each block in float32 and scales the sum once:
// d·Σ q_i x_i (+ m·Σ x_i for q4_1, q5_1), so the result equals the dot
// product of the dequantized row up to float32 rounding of the sums
// (relative error about len(x)·2⁻²⁴ of Σ|w_i x_i|). ggml itself quantizes
// x to q8 before its dot products; this keeps x in float32.
//
// It panics if typ is unsupported, len(x) is not a whole number of blocks
// or row does not hold exactly len(x) values: programming errors.
func DotRow(row []byte, typ Type, x []float32) float32 {
	n, err := typ.RowBytes(len(x))
	if err != nil {
		panic(err)
	}
	if len(row) != n {
		panic(fmt.Sprintf("ggml: DotRow: %d %v values need %d bytes, row has %d", len(x), typ, n, len(row)))
	}
	switch typ {
	case F32:
		return dotF32(row, x)
	case F16:
		return dotF16(row, x)
	}
	bb := typ.BlockBytes()
	var acc float32
	for i := 0; i < len(x); i += BlockLen {
		acc += dotBlock(row[i/BlockLen*bb:][:bb], (*[BlockLen]float32)(x[i:]), typ)
	}
	return acc
}

// MulVec stores in dst the product of the tensor, as a matrix of Rows()
// rows of RowLen() elements, with x: dst[r] = DotRow(Row(r), x). It panics
// if len(x) ≠ RowLen() or len(dst) ≠ Rows().
func (t *Tensor) MulVec(dst, x []float32) {
	if len(x) != t.RowLen() || len(dst) != t.Rows() {
		panic(fmt.Sprintf("ggml: MulVec: tensor %q of shape %v times a vector of %d into %d", t.Name, t.Shape, len(x), len(dst)))
	}
	for r := range dst {
		dst[r] = DotRow(t.Row(r), t.Type, x)
	}
}

func dotF32(row []byte, x []float32) float32 {
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		b := row[4*i:][:16]
		s0 += math.Float32frombits(binary.LittleEndian.Uint32(b)) * x[i]
		s1 += math.Float32frombits(binary.LittleEndian.Uint32(b[4:])) * x[i+1]
		s2 += math.Float32frombits(binary.LittleEndian.Uint32(b[8:])) * x[i+2]
		s3 += math.Float32frombits(binary.LittleEndian.Uint32(b[12:])) * x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += math.Float32frombits(binary.LittleEndian.Uint32(row[4*i:])) * x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

func dotF16(row []byte, x []float32) float32 {
	var s0, s1 float32
	i := 0
	for ; i+2 <= len(x); i += 2 {
		s0 += half(row[2*i:]) * x[i]
		s1 += half(row[2*i+2:]) * x[i+1]
	}
	if i < len(x) {
		s0 += half(row[2*i:]) * x[i]
	}
	return s0 + s1
}

// dotBlock returns the dot product of the block b of type typ with x.
func dotBlock(b []byte, x *[BlockLen]float32, typ Type) float32 {
	const h = BlockLen / 2
	switch typ {
	case Q8_0:
		qs := b[2:34]
		var s0, s1, s2, s3 float32
		for j := 0; j < BlockLen; j += 4 {
			s0 += float32(int8(qs[j])) * x[j]
			s1 += float32(int8(qs[j+1])) * x[j+1]
			s2 += float32(int8(qs[j+2])) * x[j+2]
			s3 += float32(int8(qs[j+3])) * x[j+3]
		}
		return half(b) * ((s0 + s1) + (s2 + s3))
	case Q4_0:
		qs := b[2:18]
		var s0, s1 float32
		for j := range h {
			s0 += float32(int(qs[j]&0x0f)-8) * x[j]
			s1 += float32(int(qs[j]>>4)-8) * x[j+h]
		}
		return half(b) * (s0 + s1)
	case Q4_1:
		qs := b[4:20]
		var s0, s1, sx float32
		for j := range h {
			s0 += float32(qs[j]&0x0f) * x[j]
			s1 += float32(qs[j]>>4) * x[j+h]
			sx += x[j] + x[j+h]
		}
		return half(b)*(s0+s1) + half(b[2:])*sx
	case Q5_0:
		qh, qs := binary.LittleEndian.Uint32(b[2:]), b[6:22]
		var s0, s1 float32
		for j := range h {
			q0 := int(qs[j]&0x0f | byte(qh>>j<<4)&0x10)
			q1 := int(qs[j]>>4 | byte(qh>>(j+12))&0x10)
			s0 += float32(q0-16) * x[j]
			s1 += float32(q1-16) * x[j+h]
		}
		return half(b) * (s0 + s1)
	case Q5_1:
		qh, qs := binary.LittleEndian.Uint32(b[4:]), b[8:24]
		var s0, s1, sx float32
		for j := range h {
			q0 := qs[j]&0x0f | byte(qh>>j<<4)&0x10
			q1 := qs[j]>>4 | byte(qh>>(j+12))&0x10
			s0 += float32(q0) * x[j]
			s1 += float32(q1) * x[j+h]
			sx += x[j] + x[j+h]
		}
		return half(b)*(s0+s1) + half(b[2:])*sx
	}
	panic(fmt.Sprintf("ggml: dotBlock: %v is not a block type", typ))
}
