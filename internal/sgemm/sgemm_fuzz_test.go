package sgemm

import (
	"math/rand/v2"
	"testing"
)

// FuzzSgemm checks products of fuzzed shapes, transposes, strides and
// scalars against the float64 reference, with the assembly and the Go
// kernels, and that nothing outside C is written (the sentinel padding).
func FuzzSgemm(f *testing.F) {
	f.Add(uint8(6), uint8(16), uint8(8), uint8(0), uint8(0), uint64(1))
	f.Add(uint8(1), uint8(33), uint8(17), uint8(3), uint8(2), uint64(2))
	f.Add(uint8(70), uint8(1), uint8(255), uint8(1), uint8(1), uint64(3))
	f.Add(uint8(13), uint8(100), uint8(0), uint8(2), uint8(3), uint64(4))
	f.Add(uint8(65), uint8(17), uint8(9), uint8(14), uint8(0), uint64(5))
	f.Fuzz(func(t *testing.T, m8, n8, k8, flags, pad8 uint8, seed uint64) {
		m, n, k := int(m8)%150+1, int(n8)%150+1, int(k8)%300
		scalars := [][2]float32{{1, 0}, {0.7, 0.3}, {-1.5, 1}, {0, 2}}
		s := scalars[flags>>2&3]
		tc := gemmCase{flags&1 != 0, flags&2 != 0, m, n, k, s[0], s[1], int(pad8) % 4}
		r := rand.New(rand.NewPCG(seed, 0))
		a, lda, b, ldb, c0, ldc := tc.operands(r)
		want, bound := naiveGemm(tc, a, lda, b, ldb, c0, ldc)
		for _, path := range sgemmPaths() {
			withKernels(t, path.avx2)
			c := append([]float32(nil), c0...)
			Gemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, c, ldc)
			checkGemmResult(t, tc, c, ldc, want, bound)
		}
	})
}
