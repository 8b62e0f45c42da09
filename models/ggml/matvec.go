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

// MatVecRows stores in y[i·ldy + r] the product of row r of the matrix in
// data (rows of len(x)/t values of type typ, as for MatVec) with x_i, the
// i-th of the t vectors in x, for every row r and i < t: several decoding
// steps against the same weights. Each product is bit for bit what MatVec
// gives for x_i alone. With the assembly kernels the rows are dequantized
// once, a block of rows at a time into a buffer that stays in cache, for
// all t vectors instead of once per vector (each weight rounded as the
// one-vector kernel rounds it, the sums in its order).
//
// It panics on arguments MatVec refuses, or when y is too short:
// programming errors.
func MatVecRows(y []float32, ldy int, data []byte, typ Type, x []float32, t int) {
	if t <= 0 || len(x)%t != 0 {
		panic(fmt.Sprintf("ggml: MatVecRows: %d values are not %d vectors", len(x), t))
	}
	n := len(x) / t
	rb, err := typ.RowBytes(n)
	if err != nil {
		panic(err)
	}
	if rb == 0 || len(data)%rb != 0 {
		panic(fmt.Sprintf("ggml: MatVecRows: %d bytes are not rows of %d %v values", len(data), n, typ))
	}
	rows := len(data) / rb
	if rows == 0 {
		return
	}
	if len(y) < (t-1)*ldy+rows || ldy < rows {
		panic(fmt.Sprintf("ggml: MatVecRows: y holds %d values, %d vectors of %d rows %d apart need %d", len(y), t, rows, ldy, (t-1)*ldy+rows))
	}
	if n > 0 && matVecRowsFast(y, ldy, data, typ, x, rows, n, t) {
		return
	}
	for i := range t {
		MatVec(y[i*ldy:i*ldy+rows], data, typ, x[i*n:(i+1)*n])
	}
}

// FastMatVec reports whether MatVec runs typ in assembly on this machine.
func FastMatVec(typ Type) bool {
	_, ok := blockKernels[typ]
	return ok
}
