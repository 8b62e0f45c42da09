package models

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Gemm computes C = α·op(A)·op(B) + β·C on row-major matrices, where op(X)
// is X or Xᵀ as transA/transB say, op(A) is m×k, op(B) is k×n and C is m×n;
// lda, ldb and ldc are the row strides of A, B and C as stored.
//
// float32 products run on the module's own SGEMM (internal/sgemm: packed,
// AVX2/FMA assembly micro-kernel where the CPU has it, parallel over
// GOMAXPROCS for large products, allocation-free), float64 ones (gradient
// checks) on gonum's pure-Go DGEMM; with -tags openblas both go to
// OpenBLAS. β = 0 means C is not read. Mismatched sizes panic, as in gonum:
// they are programmer errors.
func Gemm[F Float](transA, transB bool, m, n, k int, alpha F, a []F, lda int, b []F, ldb int, beta F, c []F, ldc int) {
	switch a := any(a).(type) {
	case []float32:
		gemm32(transA, transB, m, n, k, float32(alpha), a, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		if m == 0 || n == 0 {
			return
		}
		ta, tb := blas.NoTrans, blas.NoTrans
		if transA {
			ta = blas.Trans
		}
		if transB {
			tb = blas.Trans
		}
		blas64.Implementation().Dgemm(ta, tb, m, n, k, float64(alpha), a, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
}

// MatMul computes C = A·B (β = 0) for dense row-major A (m×k), B (k×n), C (m×n).
func MatMul[F Float](m, n, k int, a, b, c []F) {
	Gemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
}
