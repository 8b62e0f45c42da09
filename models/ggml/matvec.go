package ggml

import "fmt"

// MatVec stores in y the product of a matrix of len(y) rows of len(x)
// values, encoded in data as type typ row after row, with x:
//
//	y[r] = Σ_i w[r,i]·x[i]
//
// with w the dequantized values, each rounded to float32 as
// DequantizeRow rounds it (d·q, plus m after the product): the result is
// the float32 product of the dequantized matrix up to the order of the
// sums. It reads the blocks in place, never materializing a row: a
// decoding step of a quantized model multiplies one row by every weight,
// so its speed is that of reading the weights. With AVX2 (and without
// the purego tag) the block types run in assembly (blocks_amd64.s), eight
// lanes at a time, as fast as memory streams the blocks (FastMatVec);
// otherwise, and for f32 and f16, it is DotRow row by row.
//
// It panics if typ is unsupported, len(x) is not a whole number of
// blocks, or data does not hold exactly len(y) rows: programming errors.
func MatVec(y []float32, data []byte, typ Type, x []float32) {
	rb, err := typ.RowBytes(len(x))
	if err != nil {
		panic(err)
	}
	if len(data) != rb*len(y) {
		panic(fmt.Sprintf("ggml: MatVec: %d rows of %d %v values need %d bytes, data has %d", len(y), len(x), typ, rb*len(y), len(data)))
	}
	if len(y) == 0 {
		return
	}
	if len(x) > 0 && matVecFast(y, data, typ, x) {
		return
	}
	for r := range y {
		y[r] = DotRow(data[r*rb:(r+1)*rb], typ, x)
	}
}

// FastMatVec reports whether MatVec runs typ in assembly on this machine.
func FastMatVec(typ Type) bool {
	_, ok := blockKernels[typ]
	return ok
}
