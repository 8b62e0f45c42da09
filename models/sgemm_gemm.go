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

// UseBF16 switches the float32 matrix products of this process (Gemm, the
// LSTM sequence kernels, every product gorgonia makes) to bfloat16
// operands with float32 sums (on), or back to float32: about twice the
// arithmetic per cycle where the CPU has AVX512_BF16, at a relative error
// of up to 2⁻⁸ per operand (internal/sgemm, bf16.go). It returns
// sgemm.ErrNoBF16 where the CPU or build has no such kernel. Finite-
// difference gradient checks and parity tests assume float32 products:
// leave it off there.
func UseBF16(on bool) error { return sgemm.SetBF16(on) }

// ErrNoBF16 is UseBF16's error where bfloat16 products cannot run.
var ErrNoBF16 = sgemm.ErrNoBF16

// BF16 reports whether UseBF16 has switched the products to bfloat16.
func BF16() bool { return sgemm.BF16() }
