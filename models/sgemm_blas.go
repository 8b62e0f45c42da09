//go:build !openblas

package models

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/gorgonia"

	"github.com/attend-go/attend/internal/sgemm"
)

// In the default build the package's SGEMM also serves every other float32
// matrix product of the process: gonum's blas32 users and gorgonia's own
// operations (gorgonia.Mul and friends), as OpenBLAS does with -tags
// openblas (blas_openblas.go). Everything else stays gonum's.
func init() {
	blas32.Use(sgemmBLAS{})
	gorgonia.Use(sgemmBLAS{})
}

// sgemmBLAS is gonum's pure-Go BLAS with Sgemm and Sgemv replaced by the
// package's kernels.
type sgemmBLAS struct{ gonum.Implementation }

// Sgemm computes C = α·op(A)·op(B) + β·C (row-major, gonum's conventions).
func (sgemmBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemm.Gemm(isTrans(tA), isTrans(tB), m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// Sgemv computes y = α·op(A)·x + β·y for the m×n matrix A. Unit strides
// run as one-column (op(A)·x) or one-row (xᵀ·A) products of sgemm, which
// stream over A with the assembly kernels; other strides go to gonum.
func (impl sgemmBLAS) Sgemv(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
	if incX != 1 || incY != 1 || m == 0 || n == 0 {
		if lenY := m; beta == 0 && m > 0 && n > 0 && incY != 0 {
			// As everywhere here, β = 0 means y is not read: gonum
			// multiplies it by β, so NaN there would stay.
			if isTrans(tA) {
				lenY = n
			}
			step := max(incY, -incY)
			if (lenY-1)*step < len(y) {
				for i := range lenY {
					y[i*step] = 0
				}
			}
		}
		impl.Implementation.Sgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY)
		return
	}
	if isTrans(tA) {
		// yᵀ (1×n) = α·xᵀ (1×m)·A (m×n) + β·yᵀ
		sgemm.Gemm(false, false, 1, n, m, alpha, x, m, a, lda, beta, y, n)
		return
	}
	// y (m×1) = α·A (m×n)·x (n×1) + β·y, with x stored as the 1×n row of Bᵀ
	sgemm.Gemm(false, true, m, 1, n, alpha, a, lda, x, n, beta, y, 1)
}

// isTrans maps a blas.Transpose to "op(X) = Xᵀ", panicking on an invalid
// value as gonum does.
func isTrans(t blas.Transpose) bool {
	switch t {
	case blas.NoTrans:
		return false
	case blas.Trans, blas.ConjTrans:
		return true
	}
	panic("models: bad blas.Transpose value")
}
