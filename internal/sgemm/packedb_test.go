package sgemm

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// TestGemmPacked checks GemmPacked against the reference on Gemm's cases
// (every transpose, edge tiles, k beyond one KC block, n beyond one NC
// block), packing B once and reusing it for two products.
func TestGemmPacked(t *testing.T) {
	for _, path := range sgemmPaths() {
		t.Run(path.name, func(t *testing.T) {
			withKernels(t, path.avx2)
			r := rand.New(rand.NewPCG(7, 8))
			var pb PackedB
			for _, tc := range sgemmCases() {
				t.Run(tc.String(), func(t *testing.T) {
					a, lda, b, ldb, c, ldc := tc.operands(r)
					want, bound := naiveGemm(tc, a, lda, b, ldb, c, ldc)
					pb.Pack(tc.transB, tc.k, tc.n, b, ldb)
					if k, n := pb.Dims(); k != tc.k || n != tc.n {
						t.Fatalf("Dims() = %d, %d, want %d, %d", k, n, tc.k, tc.n)
					}
					for i := range b {
						b[i] = 1e30 // B is not read after packing
					}
					c2 := append([]float32(nil), c...)
					GemmPacked(tc.transA, tc.m, tc.alpha, a, lda, &pb, tc.beta, c, ldc)
					checkGemmResult(t, tc, c, ldc, want, bound)
					GemmPacked(tc.transA, tc.m, tc.alpha, a, lda, &pb, tc.beta, c2, ldc)
					checkGemmResult(t, tc, c2, ldc, want, bound)
				})
			}
		})
	}
}

// TestGemmPackedParallel runs packed products large enough to split their
// rows over goroutines.
func TestGemmPackedParallel(t *testing.T) {
	cases := []gemmCase{
		{false, false, 300, 200, 150, 1, 0, 0},
		{true, true, 500, 97, 300, -1, 0.25, 2},
		{false, true, 400, 1000, 60, 1, 1, 1},    // n > m: column chunks
		{false, false, 32, 1024, 320, 1, 0, 0},   // a decoder LSTM step: column chunks
		{true, false, 20, 4100, 300, 0.5, 1, 2},  // n > NC: row chunks
		{false, true, 33, 1000, 257, -1, 0.5, 1}, // k > KC, edge panels
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(9, 10))
	for _, tc := range cases {
		a, lda, b, ldb, c0, ldc := tc.operands(r)
		want, bound := naiveGemm(tc, a, lda, b, ldb, c0, ldc)
		var pb PackedB
		pb.Pack(tc.transB, tc.k, tc.n, b, ldb)
		for _, path := range sgemmPaths() {
			for _, procs := range []int{1, 2, 5} {
				t.Run(fmt.Sprintf("%s/procs%d/%v", path.name, procs, tc), func(t *testing.T) {
					withKernels(t, path.avx2)
					runtime.GOMAXPROCS(procs)
					g := gemmArgs{m: tc.m, n: tc.n, k: tc.k, packed: pb.data, packedN: tc.n}
					if _, _, chunks := g.split(procs); procs > 1 && chunks < 2 && tc.m*tc.n*tc.k > 1<<23 {
						t.Fatalf("not split over %d goroutines", procs)
					}
					c := append([]float32(nil), c0...)
					GemmPacked(tc.transA, tc.m, tc.alpha, a, lda, &pb, tc.beta, c, ldc)
					checkGemmResult(t, tc, c, ldc, want, bound)
				})
			}
		}
	}
}

func TestGemmPackedAllocs(t *testing.T) {
	const m, n, k = 16, 1024, 256
	a, w, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
	var pb PackedB
	pb.Pack(false, k, n, w, n)
	GemmPacked(false, m, 1, a, k, &pb, 1, c, n)
	if allocs := testing.AllocsPerRun(10, func() {
		pb.Pack(false, k, n, w, n)
		GemmPacked(false, m, 1, a, k, &pb, 1, c, n)
	}); allocs != 0 {
		t.Errorf("%v allocations per packed product, want 0", allocs)
	}
}

// BenchmarkPackedB compares a BiLSTM's recurrent product (16 rows of h
// times Wh, 256×1024, row stride 4 KiB) read in place by Gemm with the
// same product from B packed once.
func BenchmarkPackedB(b *testing.B) {
	const m, n, k = 16, 1024, 256
	r := rand.New(rand.NewPCG(1, 1))
	rnd := func(size int) []float32 { return normals(r, size) }
	a, w, c := rnd(m*k), rnd(k*n), make([]float32, m*n)
	flops := func(b *testing.B) {
		b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
	}
	b.Run("Gemm", func(b *testing.B) {
		for range b.N {
			Gemm(false, false, m, n, k, 1, a, k, w, n, 1, c, n)
		}
		flops(b)
	})
	b.Run("GemmPacked", func(b *testing.B) {
		var pb PackedB
		pb.Pack(false, k, n, w, n)
		b.ResetTimer()
		for range b.N {
			GemmPacked(false, m, 1, a, k, &pb, 1, c, n)
		}
		flops(b)
	})
}
