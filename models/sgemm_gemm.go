//go:build !openblas

package models

// gemm32 is Gemm's float32 path: the kernels of sgemm.go in the default
// build, OpenBLAS with -tags openblas (sgemm_openblas.go).
func gemm32(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}
