package sgemm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// BenchmarkSgemm compares, on the shapes that matter in this module, the
// package's SGEMM ("asm": assembly kernels where the CPU has them; "go":
// the Go kernels, forced; "bf16": bfloat16 operands and float32 sums,
// SetBF16, where the CPU has AVX512_BF16) with gonum's pure-Go SGEMM
// (SGEMV for one row).
// Run with -cpu 1,2 for one and two cores. Each shape is m×n×k with the
// transposes of A and B:
//
//	square256…1024   square products
//	decLSTM          (32×576)·(576×1024): decoder LSTM step, B = 32
//	decLSTM_dx       (32×1024)·(576×1024)ᵀ: its input gradient
//	decLSTM_dw       (576×32)ᵀ·(32×1024): its weight gradient
//	attnKeys         (3200×256)·(256×256): attention key projection
//	bilstmIn         (6400×80)·(80×1024): BiLSTM input projection
//	bilstmIn_dx      (6400×1024)·(80×1024)ᵀ: its input gradient
//	bilstmIn_dw      (6400×256)ᵀ·(6400×1024): a weight gradient over all steps
//	bilstmStep       (16×256)·(256×1024): BiLSTM recurrence step, B = 16
//	gemv             (1×256)·(256×1024): greedy decoding, one row
//	gemvT            (1×576)·(1024×576)ᵀ
//	whisperLinear    (1500×384)·(384×384): a projection of tiny Whisper's encoder
//	whisperAV        (1500×1500)·(1500×64): its attention's weights times values, a head
func BenchmarkSgemm(b *testing.B) {
	shapes := []struct {
		name           string
		transA, transB bool
		m, n, k        int
	}{
		{"square256", false, false, 256, 256, 256},
		{"square512", false, false, 512, 512, 512},
		{"square1024", false, false, 1024, 1024, 1024},
		{"decLSTM", false, false, 32, 1024, 576},
		{"decLSTM_dx", false, true, 32, 576, 1024},
		{"decLSTM_dw", true, false, 576, 1024, 32},
		{"attnKeys", false, false, 3200, 256, 256},
		{"bilstmIn", false, false, 6400, 1024, 80},
		{"bilstmIn_dx", false, true, 6400, 80, 1024},
		{"bilstmIn_dw", true, false, 256, 1024, 6400},
		{"bilstmStep", false, false, 16, 1024, 256},
		{"gemv", false, false, 1, 1024, 256},
		{"gemvT", false, true, 1, 1024, 576},
		{"whisperLinear", false, false, 1500, 384, 384},
		{"whisperAV", false, false, 1500, 64, 1500},
	}
	impls := []struct {
		name string
		gemm func(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
		avx2 bool
		bf16 bool
	}{
		{"asm", Gemm, true, false},
		{"bf16", Gemm, true, true},
		{"go", Gemm, false, false},
		{"gonum", gonumSgemm, false, false},
	}
	for _, s := range shapes {
		for _, impl := range impls {
			if impl.name == "asm" && !sgemmAVX2 {
				continue // no assembly here: "go" is the package's SGEMM
			}
			if impl.bf16 && !bf16Available {
				continue
			}
			name := fmt.Sprintf("%s_%dx%dx%d/%s", s.name, s.m, s.n, s.k, impl.name)
			b.Run(name, func(b *testing.B) {
				withKernels(b, impl.avx2 && sgemmAVX2)
				bf16Mode.Store(impl.bf16)
				defer bf16Mode.Store(false)
				benchGemm(b, impl.gemm, s.transA, s.transB, s.m, s.n, s.k)
			})
		}
	}
}

// gonumSgemm is gonum's SGEMM, or for one row (m = 1) its SGEMV, as
// package models (linear_rows.go) calls it.
func gonumSgemm(tA, tB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 1 && !tA {
		if tB { // B stored n×k: cᵀ = B·x
			gonum.Implementation{}.Sgemv(blas.NoTrans, n, k, alpha, b, ldb, a, 1, beta, c, 1)
		} else { // B stored k×n: cᵀ = Bᵀ·x
			gonum.Implementation{}.Sgemv(blas.Trans, k, n, alpha, b, ldb, a, 1, beta, c, 1)
		}
		return
	}
	ta, tb := blas.NoTrans, blas.NoTrans
	if tA {
		ta = blas.Trans
	}
	if tB {
		tb = blas.Trans
	}
	gonum.Implementation{}.Sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// benchGemm times C = A·B (β = 0) for dense operands and reports GFLOP/s
// (2mnk floating-point operations per product).
func benchGemm(b *testing.B, gemm func(bool, bool, int, int, int, float32, []float32, int, []float32, int, float32, []float32, int), tA, tB bool, m, n, k int) {
	r := rand.New(rand.NewPCG(1, 1))
	rnd := func(size int) []float32 { return normals(r, size) }
	a, w, c := rnd(m*k), rnd(k*n), make([]float32, m*n)
	lda, ldb := k, n
	if tA {
		lda = m
	}
	if tB {
		ldb = k
	}
	gemm(tA, tB, m, n, k, 1, a, lda, w, ldb, 0, c, n) // warm-up: buffers, helper goroutines
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		gemm(tA, tB, m, n, k, 1, a, lda, w, ldb, 0, c, n)
	}
	b.ReportMetric(2*float64(m)*float64(n)*float64(k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}
