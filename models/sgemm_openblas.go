//go:build openblas

package models

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
)

// gemm32 is Gemm's float32 path: with -tags openblas every product goes
// to OpenBLAS (blas_openblas.go installs it as blas32's implementation).
func gemm32(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	ta, tb := blas.NoTrans, blas.NoTrans
	if transA {
		ta = blas.Trans
	}
	if transB {
		tb = blas.Trans
	}
	blas32.Implementation().Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// packed32 is packedRHS's float32 form: OpenBLAS packs B itself on every
// call, so this keeps a reference.
type packed32 struct {
	trans bool
	k, n  int
	b     []float32
	ldb   int
}

func pack32(p *packed32, trans bool, k, n int, b []float32, ldb int) {
	*p = packed32{trans, k, n, b, ldb}
}

func gemmPacked32(p *packed32, m int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) {
	gemm32(false, p.trans, m, p.n, p.k, alpha, a, lda, p.b, p.ldb, beta, c, ldc)
}
