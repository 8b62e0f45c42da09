package sgemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// sgemmPaths are the kernels a test runs: the assembly ones where the CPU
// has them, and always the Go ones (sgemmAVX2 cleared).
func sgemmPaths() []struct {
	name string
	avx2 bool
} {
	paths := []struct {
		name string
		avx2 bool
	}{{"go", false}}
	if sgemmAVX2 {
		paths = append(paths, struct {
			name string
			avx2 bool
		}{"avx2", true})
	}
	return paths
}

// withKernels runs f with sgemmAVX2 set to avx2, restoring it after.
func withKernels(t testing.TB, avx2 bool) {
	t.Helper()
	saved := sgemmAVX2
	sgemmAVX2 = avx2
	t.Cleanup(func() { sgemmAVX2 = saved })
}

// gemmCase is one product with its operands laid out with padded strides.
type gemmCase struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float32
	pad            int // extra elements per row of A, B and C
}

func (tc gemmCase) String() string {
	t := func(b bool) string {
		if b {
			return "T"
		}
		return "N"
	}
	return fmt.Sprintf("%s%s_%dx%dx%d_a%g_b%g_pad%d", t(tc.transA), t(tc.transB), tc.m, tc.n, tc.k, tc.alpha, tc.beta, tc.pad)
}

// operands returns A, B and C filled with values from r, their strides, and
// the padding of C (between columns n and ldc, and after the last row)
// filled with a sentinel; with β = 0, C's elements are NaN, which the
// product must not read.
func (tc gemmCase) operands(r *rand.Rand) (a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	rowsA, colsA := tc.m, tc.k
	if tc.transA {
		rowsA, colsA = tc.k, tc.m
	}
	rowsB, colsB := tc.k, tc.n
	if tc.transB {
		rowsB, colsB = tc.n, tc.k
	}
	lda, ldb, ldc = max(1, colsA)+tc.pad, max(1, colsB)+tc.pad, tc.n+tc.pad
	fill := func(rows, ld int) []float32 {
		s := make([]float32, rows*ld)
		for i := range s {
			s[i] = float32(r.NormFloat64())
		}
		return s
	}
	a, b = fill(rowsA, lda), fill(rowsB, ldb)
	c = make([]float32, tc.m*ldc+tc.pad)
	for i := range c {
		switch {
		case i >= tc.m*ldc || i%ldc >= tc.n:
			c[i] = sentinel
		case tc.beta == 0:
			c[i] = float32(math.NaN())
		default:
			c[i] = float32(r.NormFloat64())
		}
	}
	return a, lda, b, ldb, c, ldc
}

const sentinel = 12345.5

// naiveGemm is the reference: C = α·op(A)·op(B) + β·C summed in float64,
// with bound[i·ldc+j] = Σ_p |α·a·b| + |β·c|, the scale of the rounding
// errors of a float32 sum.
func naiveGemm(tc gemmCase, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) (want, bound []float64) {
	want, bound = make([]float64, len(c)), make([]float64, len(c))
	for i := range tc.m {
		for j := range tc.n {
			var s, abs float64
			for p := range tc.k {
				ia, ib := i*lda+p, p*ldb+j
				if tc.transA {
					ia = p*lda + i
				}
				if tc.transB {
					ib = j*ldb + p
				}
				av, bv := a[ia], b[ib]
				s += float64(av) * float64(bv)
				abs += math.Abs(float64(av) * float64(bv))
			}
			s *= float64(tc.alpha)
			abs *= math.Abs(float64(tc.alpha))
			if tc.beta != 0 {
				s += float64(tc.beta) * float64(c[i*ldc+j])
				abs += math.Abs(float64(tc.beta) * float64(c[i*ldc+j]))
			}
			want[i*ldc+j], bound[i*ldc+j] = s, abs
		}
	}
	return want, bound
}

// checkGemmResult compares got with the reference: each element within
// (k+4)·ε₃₂ of its error scale, the padding untouched.
func checkGemmResult(t *testing.T, tc gemmCase, got []float32, ldc int, want, bound []float64) {
	t.Helper()
	tol := float64(tc.k+4) * 0x1p-23
	bad := 0
	for i, g := range got {
		if i >= tc.m*ldc || i%ldc >= tc.n {
			if g != sentinel {
				t.Fatalf("element %d outside C (row %d, column %d) changed to %g", i, i/ldc, i%ldc, g)
			}
			continue
		}
		if d := math.Abs(float64(g) - want[i]); !(d <= tol*bound[i]+1e-30) {
			if bad++; bad <= 3 {
				t.Errorf("C[%d][%d] = %g, want %g (|diff| %.3g > %.3g)", i/ldc, i%ldc, g, want[i], d, tol*bound[i])
			}
		}
	}
	if bad > 3 {
		t.Errorf("%d elements wrong in all", bad)
	}
}

// sgemmCases lists the products of TestSgemm: every transpose with small
// sizes around the tile (6×16; 7, 8 and 14 rows end in strips of 4) in all
// combinations, sizes across the block boundaries (KC = 256, MC = 144,
// NC = 4096, the in-place limit of 24 rows), the vector shapes, and the
// α, β special cases.
func sgemmCases() []gemmCase {
	var cases []gemmCase
	small := []int{1, 2, 5, 6, 7, 8, 14, 15, 16, 17, 33}
	scalars := [][2]float32{{1, 0}, {0.7, 0.3}, {-1.5, 1}}
	i := 0
	for _, transA := range []bool{false, true} {
		for _, transB := range []bool{false, true} {
			for _, m := range small {
				for _, n := range small {
					for _, k := range []int{1, 7, 17, 33} {
						s := scalars[i%len(scalars)]
						cases = append(cases, gemmCase{transA, transB, m, n, k, s[0], s[1], i % 3})
						i++
					}
				}
			}
			for _, s := range [][3]int{
				{64, 100, 129}, {100, 257, 64}, {129, 64, 257}, {257, 129, 100},
				{257, 257, 257}, {24, 100, 300}, {25, 100, 300}, {7, 4100, 3},
				{300, 2, 513}, {2, 300, 513}, {1, 257, 129}, {1, 1, 257},
				{129, 1, 100}, {1, 100, 1}, {100, 1, 1},
			} {
				sc := scalars[i%len(scalars)]
				cases = append(cases, gemmCase{transA, transB, s[0], s[1], s[2], sc[0], sc[1], i % 3})
				i++
			}
			for _, s := range [][3]int{{5, 17, 0}, {1, 7, 0}, {17, 5, 3}} {
				cases = append(cases,
					gemmCase{transA, transB, s[0], s[1], s[2], 1, 0, 1},   // C = 0
					gemmCase{transA, transB, s[0], s[1], s[2], 1, 2.5, 1}, // C = β·C
				)
				if s[2] > 0 {
					cases = append(cases, gemmCase{transA, transB, s[0], s[1], s[2], 0, 0.5, 2}) // α = 0
				}
			}
		}
	}
	return cases
}

func TestSgemm(t *testing.T) {
	for _, path := range sgemmPaths() {
		t.Run(path.name, func(t *testing.T) {
			withKernels(t, path.avx2)
			r := rand.New(rand.NewPCG(1, 2))
			for _, tc := range sgemmCases() {
				t.Run(tc.String(), func(t *testing.T) {
					a, lda, b, ldb, c, ldc := tc.operands(r)
					want, bound := naiveGemm(tc, a, lda, b, ldb, c, ldc)
					if tc.alpha == 0 || tc.k == 0 {
						// A and B are not read: NaN there must not leak into C.
						for i := range a {
							a[i] = float32(math.NaN())
						}
					}
					Gemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, c, ldc)
					checkGemmResult(t, tc, c, ldc, want, bound)
				})
			}
		})
	}
}

// TestSgemmParallel runs products big enough to be split over goroutines
// with GOMAXPROCS 1, 2 and 5 (more goroutines than this machine's cores, and
// a number that does not divide the chunks evenly), against the reference.
func TestSgemmParallel(t *testing.T) {
	cases := []gemmCase{
		{false, false, 300, 200, 150, 1, 0, 0},  // row chunks
		{true, false, 120, 1000, 80, 0.5, 1, 3}, // column chunks
		{false, true, 16, 1100, 512, 1, 1, 0},   // column chunks, B transposed
		{true, true, 500, 97, 200, -1, 0.25, 2}, // row chunks, both transposed
		{false, false, 400, 410, 60, 1, 0, 1},   // many chunks each way
		{false, true, 1, 33000, 264, 1, 0, 1},   // one row: column chunks of gemvT
		{true, false, 1, 33000, 260, 0.5, 1, 0}, // one row, A a column: chunks of gemvN
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	r := rand.New(rand.NewPCG(3, 4))
	for _, tc := range cases {
		a, lda, b, ldb, c0, ldc := tc.operands(r)
		want, bound := naiveGemm(tc, a, lda, b, ldb, c0, ldc)
		for _, path := range sgemmPaths() {
			for _, procs := range []int{1, 2, 5} {
				t.Run(fmt.Sprintf("%s/procs%d/%v", path.name, procs, tc), func(t *testing.T) {
					withKernels(t, path.avx2)
					runtime.GOMAXPROCS(procs)
					g := gemmArgs{m: tc.m, n: tc.n, k: tc.k}
					if _, _, chunks := g.split(procs); procs > 1 && chunks < 2 {
						t.Fatalf("not split over %d goroutines: the case tests nothing parallel", procs)
					}
					c := append([]float32(nil), c0...)
					Gemm(tc.transA, tc.transB, tc.m, tc.n, tc.k, tc.alpha, a, lda, b, ldb, tc.beta, c, ldc)
					checkGemmResult(t, tc, c, ldc, want, bound)
				})
			}
		}
	}
}

// normals returns size standard normal values drawn from r.
func normals(r *rand.Rand, size int) []float32 {
	s := make([]float32, size)
	for i := range s {
		s[i] = float32(r.NormFloat64())
	}
	return s
}

// TestSgemmConcurrent runs products from several goroutines at once, so
// that they compete for the helper goroutines and the scratch buffers (run
// it with -race), each checked against a serial product.
func TestSgemmConcurrent(t *testing.T) {
	const m, n, k = 200, 300, 150
	r := rand.New(rand.NewPCG(5, 6))
	rnd := func(size int) []float32 { return normals(r, size) }
	a, b := rnd(m*k), rnd(k*n)
	want := make([]float32, m*n)
	prev := runtime.GOMAXPROCS(1)
	Gemm(false, false, m, n, k, 1, a, k, b, n, 0, want, n)
	runtime.GOMAXPROCS(prev)
	errs := make(chan string, 4)
	for g := range 4 {
		go func() {
			c := make([]float32, m*n)
			for range 5 {
				Gemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
				for i := range c {
					if c[i] != want[i] { // same chunks of k, same order: identical
						errs <- fmt.Sprintf("goroutine %d: C[%d] = %g, want %g", g, i, c[i], want[i])
						return
					}
				}
			}
			errs <- ""
		}()
	}
	for range 4 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}

// TestSgemmAllocs checks that steady-state products allocate nothing:
// serial ones and the vector shapes with AllocsPerRun (which runs with
// GOMAXPROCS 1), and a split one with GOMAXPROCS 2 counted from the memory
// statistics.
func TestSgemmAllocs(t *testing.T) {
	shapes := []struct {
		name           string
		transA, transB bool
		m, n, k        int
	}{
		{"packed", false, false, 64, 300, 200},
		{"inplace", false, false, 16, 1024, 256},
		{"transposed", true, true, 100, 90, 80},
		{"gemv_row", false, false, 1, 1024, 256},
		{"gemv_row_T", true, true, 1, 1024, 256},
		{"gemv_column", false, true, 512, 1, 256},
	}
	for _, path := range sgemmPaths() {
		for _, s := range shapes {
			t.Run(path.name+"/"+s.name, func(t *testing.T) {
				withKernels(t, path.avx2)
				a := make([]float32, s.m*s.k)
				b := make([]float32, s.k*s.n)
				c := make([]float32, s.m*s.n)
				lda, ldb := s.k, s.n
				if s.transA {
					lda = s.m
				}
				if s.transB {
					ldb = s.k
				}
				if got := testing.AllocsPerRun(10, func() {
					Gemm(s.transA, s.transB, s.m, s.n, s.k, 1, a, lda, b, ldb, 0, c, s.n)
				}); got != 0 {
					t.Errorf("%v allocations per product, want 0", got)
				}
			})
		}
		t.Run(path.name+"/parallel", func(t *testing.T) {
			withKernels(t, path.avx2)
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
			const m, n, k = 300, 256, 128
			a, b, c := make([]float32, m*k), make([]float32, k*n), make([]float32, m*n)
			g := gemmArgs{m: m, n: n, k: k}
			if _, _, chunks := g.split(2); chunks < 2 {
				t.Fatalf("%d×%d×%d is not split (%d chunks): the test needs a split product", m, n, k, chunks)
			}
			for range 3 { // start the helpers, fill the free lists
				Gemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
			}
			// The count is the whole process's: like AllocsPerRun, which
			// rounds the average down, it forgives the runtime's own
			// occasional allocations (a new thread, a timer), not one per
			// product. On cores busy with other processes (go test ./...
			// runs packages side by side) a helper may not run at all
			// during a product: the caller then does every chunk, and the
			// next product finds the job still held by the starved helper
			// and makes another. So a round of products may allocate; the
			// test fails only when every one of several rounds does, which
			// an allocation per product would.
			const runs, rounds = 20, 5
			var d uint64
			for range rounds {
				runtime.GC() // the runtime starts its mark workers (allocations) at a collection
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for range runs {
					Gemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
				}
				runtime.ReadMemStats(&after)
				if d = after.Mallocs - before.Mallocs; d < runs {
					break
				}
			}
			if d >= runs {
				t.Errorf("%d allocations in %d split products (the last of %d rounds), want 0 per product", d, runs, rounds)
			}
		})
	}
}

// TestSgemmBadArgs checks the panics on strides and lengths that do not fit
// the shapes; the assembly must never see them.
func TestSgemmBadArgs(t *testing.T) {
	buf := make([]float32, 100)
	tests := []struct {
		name           string
		transA, transB bool
		m, n, k        int
		a              []float32
		lda            int
		b              []float32
		ldb            int
		c              []float32
		ldc            int
		want           string
	}{
		{"negative k", false, false, 2, 2, -1, buf, 2, buf, 2, buf, 2, "negative size"},
		{"lda < k", false, false, 3, 4, 5, buf, 4, buf, 4, buf, 4, "row stride of A is 4, want ≥ 5"},
		{"lda < m transposed", true, false, 6, 4, 2, buf, 5, buf, 4, buf, 4, "row stride of A is 5, want ≥ 6"},
		{"ldb < n", false, false, 3, 4, 5, buf, 5, buf, 3, buf, 4, "row stride of B is 3, want ≥ 4"},
		{"ldc < n", false, false, 3, 4, 5, buf, 5, buf, 4, buf, 3, "row stride of C is 3, want ≥ 4"},
		{"short A", false, false, 11, 2, 10, buf, 10, buf, 2, buf, 2, "A has 100 elements, want ≥ 110"},
		{"short B transposed", false, true, 2, 11, 10, buf, 10, buf, 10, buf, 11, "B has 100 elements, want ≥ 110"},
		{"short C", false, false, 2, 60, 1, buf, 1, buf, 60, buf, 60, "C has 100 elements, want ≥ 120"},
		{"short C, k = 0", false, false, 5, 30, 0, nil, 1, nil, 30, buf, 30, "C has 100 elements, want ≥ 150"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, tt.want) {
					t.Errorf("panic %v, want one containing %q", r, tt.want)
				}
			}()
			Gemm(tt.transA, tt.transB, tt.m, tt.n, tt.k, 1, tt.a, tt.lda, tt.b, tt.ldb, 0, tt.c, tt.ldc)
		})
	}
}

// TestSgemmPack checks the assembly packing against the Go packing, bit
// for bit, including the zero padding of partial strips and panels, and
// that it writes nothing past the packed block (the strips of A are
// stored in overlapping pieces).
func TestSgemmPack(t *testing.T) {
	if !sgemmAVX2 {
		t.Log("no AVX2/FMA here: the Go packing runs alone, and TestSgemm covers it")
		return
	}
	r := rand.New(rand.NewPCG(7, 8))
	rnd := func(size int) []float32 { return normals(r, size) }
	for _, trans := range []bool{false, true} {
		for _, kk := range []int{1, 7, 8, 9, 16, 23, 256} {
			for _, rows := range []int{5, 6, 12, 13, 20} {
				t.Run(fmt.Sprintf("A_trans%v_%dx%d", trans, rows, kk), func(t *testing.T) {
					const ic, pc, pad = 2, 3, 5 // an inner block of a larger matrix
					m, k := ic+rows+1, pc+kk+2
					g := gemmArgs{transA: trans, m: m, k: k, alpha: 0.75, lda: k + pad}
					if trans {
						g.lda = m + pad
						g.a = rnd(k * g.lda)
					} else {
						g.a = rnd(m * g.lda)
					}
					const guard = 16
					size := roundUp(rows, sgemmMR) * kk
					got, want := make([]float32, size+guard), make([]float32, size+guard)
					for i := range got {
						got[i], want[i] = 99, 99
					}
					g.avx2 = true
					g.packA(got[:size], ic, rows, pc, kk)
					g.avx2 = false
					g.packA(want[:size], ic, rows, pc, kk)
					if i := firstDiff(got, want); i >= size {
						t.Errorf("packing A wrote %g past the block (at %d of %d)", got[i], i, size)
					} else if i >= 0 {
						t.Errorf("packed A[%d] = %g, want %g", i, got[i], want[i])
					}
				})
			}
			for _, cols := range []int{16, 17, 32, 40} {
				t.Run(fmt.Sprintf("B_trans%v_%dx%d", trans, kk, cols), func(t *testing.T) {
					const jc, pc, pad = 3, 2, 4
					n, k := jc+cols+1, pc+kk+3
					g := gemmArgs{transB: trans, n: n, k: k, ldb: n + pad}
					if trans {
						g.ldb = k + pad
						g.b = rnd(n * g.ldb)
					} else {
						g.b = rnd(k * g.ldb)
					}
					size := roundUp(cols, sgemmNR) * kk
					got, want := make([]float32, size), make([]float32, size)
					for i := range got {
						got[i], want[i] = 99, 99
					}
					g.avx2 = true
					g.packB(got, jc, cols, pc, kk)
					g.avx2 = false
					g.packB(want, jc, cols, pc, kk)
					if i := firstDiff(got, want); i >= 0 {
						t.Errorf("packed B[%d] = %g, want %g", i, got[i], want[i])
					}
				})
			}
		}
	}
}

// firstDiff returns the first index where got and want differ bitwise, or −1.
func firstDiff(got, want []float32) int {
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
			return i
		}
	}
	return -1
}
