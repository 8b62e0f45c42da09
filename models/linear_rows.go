package models

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/blas64"
	"gorgonia.org/tensor"
)

// Row-wise helpers shared by the layer kernels (Linear, Embedding, LSTM,
// BiLSTM, pyramid, dropout, CTC).

// floatsOf returns a dense tensor's backing slice as []F. The kernels only
// see dense float32 or float64 tensors of one dtype (see Kernel), so a
// mismatch is a programmer error and panics. Unlike Data it does not
// allocate (Data boxes a slice header built by reflection).
func floatsOf[F Float](t *tensor.Dense) []F {
	if isFloat32[F]() {
		s := t.Float32s()
		return *any(&s).(*[]F)
	}
	s := t.Float64s()
	return *any(&s).(*[]F)
}

// growFloats returns buf resized to n elements, reallocating only when its
// capacity is short. The contents are unspecified.
func growFloats[F Float](buf []F, n int) []F {
	if cap(buf) < n {
		return make([]F, n)
	}
	return buf[:n]
}

// growInts is growFloats for ints.
func growInts(buf []int, n int) []int {
	if cap(buf) < n {
		return make([]int, n)
	}
	return buf[:n]
}

// broadcastRows sets each of the n rows of dst (row stride ld, width
// len(row)) to row.
func broadcastRows[F Float](dst []F, n, ld int, row []F) {
	for r := 0; r < n; r++ {
		copy(dst[r*ld:r*ld+len(row)], row)
	}
}

// sumRows writes into dst (width w) the sum of the n rows of src (row
// stride w): the bias gradient of a broadcast add.
func sumRows[F Float](dst, src []F, n, w int) {
	clear(dst[:w])
	for r := 0; r < n; r++ {
		s := src[r*w : (r+1)*w]
		for j, v := range s {
			dst[j] += v
		}
	}
}

// gemm is Gemm, except that a one-row product (m = 1: greedy decoding, one
// utterance at a time) runs as a GEMV. Both BLAS back ends are slow on
// one-row GEMMs: OpenBLAS packs all of B (its SGEMM takes 8× its SGEMV's
// time at (1×256)·(256×1024)) and gonum spawns goroutines. Gemm itself
// should do this; until it does, the layers call gemm.
func gemm[F Float](transA, transB bool, m, n, k int, alpha F, a []F, lda int, b []F, ldb int, beta F, c []F, ldc int) {
	if m != 1 || n == 0 || k == 0 {
		Gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	// c (1×n) = α·x·op(B) + β·c with x the one row of op(A), that is
	// cᵀ = α·op(B)ᵀ·xᵀ + β·cᵀ.
	incX := 1
	if transA {
		incX = lda
	}
	tb, rows, cols := blas.Trans, k, n // B stored k×n: cᵀ = Bᵀx
	if transB {
		tb, rows, cols = blas.NoTrans, n, k // B stored n×k: cᵀ = Bx
	}
	// Pointers to the slices convert to interfaces without allocating.
	switch pa := any(&a).(type) {
	case *[]float32:
		b, c := *any(&b).(*[]float32), *any(&c).(*[]float32)
		blas32.Implementation().Sgemv(tb, rows, cols, float32(alpha), b, ldb, *pa, incX, float32(beta), c, 1)
	case *[]float64:
		b, c := *any(&b).(*[]float64), *any(&c).(*[]float64)
		blas64.Implementation().Dgemv(tb, rows, cols, float64(alpha), b, ldb, *pa, incX, float64(beta), c, 1)
	}
}
