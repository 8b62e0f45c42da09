package whisper

import (
	"math"
)

// Half-precision weights for decoding. A decoding step multiplies one row
// by every decoder weight and by the 51,864-row token embedding: each
// weight is read once per token, so the step is bound by memory bandwidth
// (tiny: 80 MB of embedding and 33 MB of layer weights per token in
// float32). Whisper's checkpoints are float16, so their weights are exactly
// representable in IEEE half precision: when every value of a matrix is,
// the model keeps the matrix in half precision only (matrix.go): one-row
// products read it directly (two bytes a weight, converted by VCVTPH2PS on
// the fly), with results equal to the float32 product's up to the order
// of the sums, and products of several rows convert it to float32 first,
// so theirs are exact. A matrix with any value that half precision cannot
// hold stays float32.

// halfExact returns w in IEEE 754 binary16 bits, or nil when some value of
// w is not exactly representable (±Inf and NaN count as not).
func halfExact(w []float32) []uint16 {
	h := make([]uint16, len(w))
	for i, v := range w {
		b, ok := toHalfExact(v)
		if !ok {
			return nil
		}
		h[i] = b
	}
	return h
}

// toHalfExact converts v to binary16 bits when it is exact there: normal
// halves (2⁻¹⁴ ≤ |v| ≤ 65504, 11 significant bits), subnormal ones
// (multiples of 2⁻²⁴ below 2⁻¹⁴) and ±0.
func toHalfExact(v float32) (uint16, bool) {
	b := math.Float32bits(v)
	sign := uint16(b>>16) & 0x8000
	e := int(b>>23&0xff) - 127
	mant := b & 0x7fffff
	switch {
	case b&0x7fffffff == 0:
		return sign, true
	case e == 128: // Inf, NaN
		return 0, false
	case e >= -14 && e <= 15:
		if mant&0x1fff != 0 {
			return 0, false
		}
		return sign | uint16(e+15)<<10 | uint16(mant>>13), true
	case e >= -24 && e < -14:
		// |v| = (2²³ + mant)·2^(e−23) = m·2⁻²⁴ with m = (2²³ + mant)>>(−e−1).
		full := uint32(1)<<23 | mant
		shift := uint(-e - 1)
		if full&(1<<shift-1) != 0 {
			return 0, false
		}
		return sign | uint16(full>>shift), true
	}
	return 0, false
}

// halfToFloat32 converts binary16 bits to float32 (exactly).
func halfToFloat32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	e := uint32(h >> 10 & 0x1f)
	mant := uint32(h & 0x3ff)
	switch {
	case e == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case e != 0:
		return math.Float32frombits(sign | (e+112)<<23 | mant<<13)
	}
	v := float32(mant) / (1 << 24)
	if sign != 0 {
		return -v
	}
	return v
}

// halfToFloat32s converts src to float32 into dst (as long as src).
func halfToFloat32s(dst []float32, src []uint16) {
	done := halfToFloat32sFast(dst, src)
	for i, h := range src[done:] {
		dst[done+i] = halfToFloat32(h)
	}
}

// halfParallelElems is the matrix size from which halfMatVec splits its
// rows over goroutines: the token embedding (51,864×384), not the layers.
const halfParallelElems = 1 << 20

// halfMatVec computes y (rows) = W·x for W (rows, cols) in binary16, x
// (cols), split over up to GOMAXPROCS goroutines when W is large
// (parallelRows).
func halfMatVec(y, x []float32, w []uint16, rows, cols int) {
	if rows == 0 || cols == 0 {
		clear(y[:rows])
		return
	}
	_, _, _ = y[rows-1], x[cols-1], w[rows*cols-1]
	parallelRows(rows, cols, func(lo, hi int) {
		halfDotRows(y[lo:hi], x[:cols], w[lo*cols:hi*cols], cols)
	})
}

// halfDotRows computes y[j] = Σ_p x[p]·w[j·ldw+p] for j < len(y), p <
// len(x): dot products with len(x) columns of rows ldw apart.
func halfDotRows(y, x []float32, w []uint16, ldw int) {
	done := halfDotRowsFast(y, x, w, ldw)
	for j := range y[done:] {
		row := w[(done+j)*ldw:][:len(x)]
		var s float32
		for p, v := range x {
			s += v * halfToFloat32(row[p])
		}
		y[done+j] = s
	}
}

// tokenEmbedding writes token tok's embedding row into dst (n_text_state).
func (m *Model) tokenEmbedding(dst []float32, tok int) {
	m.tokEmb.rowsTo(dst, tok, tok+1)
}

// logits writes y (t, n_vocab) = x (t, n)·Eᵀ, E the token embedding (kept
// in half precision when exact: 40 MB instead of 80 for every model
// size's 51,864 tokens): one row by matrix.mulVec, several over blocks of
// E converted to float32 (matrix.mulBlocks) unless E is float32; buf is
// scratch (grown as needed and returned).
func (m *Model) logits(y, x []float32, t int, s *scratch) {
	m.tokEmb.forwardRows(y, x, t, s)
}
