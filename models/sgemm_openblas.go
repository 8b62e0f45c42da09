//go:build openblas

package models

import (
	"errors"

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

// UseBF16 has no bfloat16 products to switch to in the OpenBLAS build.
func UseBF16(on bool) error {
	if on {
		return ErrNoBF16
	}
	return nil
}

// BF16 reports whether UseBF16 has switched the products to bfloat16:
// never in this build.
func BF16() bool { return false }

// ErrNoBF16 is UseBF16's error where bfloat16 products cannot run.
var ErrNoBF16 = errors.New("bfloat16 products need the default build's kernels (not -tags openblas)")
