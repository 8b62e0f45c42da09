//go:build !openblas

package models

import "github.com/attend-go/attend/internal/sgemm"

// gemm32 is Gemm's float32 path: the kernels of internal/sgemm in the default
// build, OpenBLAS with -tags openblas (sgemm_openblas.go).
func gemm32(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemm.Gemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// packed32 is packedRHS's float32 form: panels packed by internal/sgemm.
type packed32 = sgemm.PackedB

func pack32(p *packed32, trans bool, k, n int, b []float32, ldb int) {
	p.Pack(trans, k, n, b, ldb)
}

func gemmPacked32(p *packed32, m int, alpha float32, a []float32, lda int, beta float32, c []float32, ldc int) {
	sgemm.GemmPacked(false, m, alpha, a, lda, p, beta, c, ldc)
}
