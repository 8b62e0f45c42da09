package sgemm

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

func TestBF16Bits(t *testing.T) {
	for _, c := range []struct {
		in   uint32 // float32 bits
		want uint32
	}{
		{0x3f800000, 0x3f80}, // 1
		{0x80000000, 0x8000}, // −0
		{0x3f808000, 0x3f80}, // halfway, rounds to the even 0x3f80
		{0x3f818000, 0x3f82}, // halfway, rounds to the even 0x3f82
		{0x3f808001, 0x3f81}, // above halfway
		{0x3f807fff, 0x3f80}, // below halfway
		{0xbf80ffff, 0xbf81}, // negative, rounds away in magnitude
		{0x7f7fffff, 0x7f80}, // the largest float32 rounds to +Inf
		{0x7f800000, 0x7f80}, // +Inf stays
		{0x7fc00000, 0x7fc0}, // quiet NaN stays
		{0x7f800001, 0x7fc0}, // signalling NaN becomes a quiet NaN, not Inf
		{0x00000001, 0x0000}, // subnormals are zeros, as in VCVTNE2PS2BF16
		{0x007fffff, 0x0000},
		{0x80018000, 0x8000},
	} {
		if got := bf16Bits(math.Float32frombits(c.in)); got != c.want {
			t.Errorf("bf16Bits(%#08x) = %#04x, want %#04x", c.in, got, c.want)
		}
	}
}

// randomWords fills n words with pairs of bfloat16 of random values in
// [−1, 1).
func randomWords(rng *rand.Rand, n int) []uint32 {
	w := make([]uint32, n)
	for i := range w {
		w[i] = bf16Pair(2*rng.Float32()-1, 2*rng.Float32()-1)
	}
	return w
}

// TestBF16Kernel checks the assembly micro-kernels against bf16TileGo,
// their contract, for every row count.
func TestBF16Kernel(t *testing.T) {
	if !bf16Available {
		t.Skip("this CPU or build has no AVX512_BF16 kernel: bf16Tile runs bf16TileGo, which the Gemm tests cover")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, kp := range []int{0, 1, 3, 128} {
		for rows := 1; rows <= bf16MR; rows++ {
			for _, beta := range []float32{0, 1, -0.5} {
				for _, ldc := range []int{bf16NR, 45} {
					a := randomWords(rng, bf16MR*max(kp, 1))
					b := randomWords(rng, bf16NR*max(kp, 1))
					c0 := make([]float32, (rows-1)*ldc+bf16NR)
					for i := range c0 {
						c0[i] = rng.Float32()
					}
					want := append([]float32(nil), c0...)
					got := append([]float32(nil), c0...)
					bf16TileGo(rows, kp, a, b, want, ldc, beta)
					bf16Tile(rows, kp, a, b, got, ldc, beta)
					for i := range got {
						if d := math.Abs(float64(got[i] - want[i])); d > 1e-5*float64(2*kp+1) {
							t.Fatalf("kp=%d rows=%d beta=%v ldc=%d: c[%d] = %v, Go kernel %v", kp, rows, beta, ldc, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// withBF16 runs f with the bf16 switch on, also where the CPU has no
// kernel (the driver then runs bf16TileGo), and turns it off again.
func withBF16(t *testing.T, f func()) {
	t.Helper()
	bf16Mode.Store(true)
	defer bf16Mode.Store(false)
	f()
}

// refBF16 is C = bf16(α·op(A))·bf16(op(B)) + β·C in float64, with the
// bound on each element's rounding error a float32 sum of those products
// may have (k terms, relative 2⁻²⁴ each, plus the final β·C).
func refBF16(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) (want, bound []float64) {
	round := func(x float32) float64 { return float64(bf16Float(bf16Bits(x))) }
	want = make([]float64, m*n)
	bound = make([]float64, m*n)
	for i := range m {
		for j := range n {
			var s, abs float64
			for p := range k {
				var ai, bj float32
				if transA {
					ai = a[p*lda+i]
				} else {
					ai = a[i*lda+p]
				}
				if transB {
					bj = b[j*ldb+p]
				} else {
					bj = b[p*ldb+j]
				}
				v := round(alpha*ai) * round(bj)
				s += v
				abs += math.Abs(v)
			}
			cij := 0.0
			if beta != 0 {
				cij = float64(beta) * float64(c[i*ldc+j])
			}
			want[i*n+j] = s + cij
			bound[i*n+j] = float64(k+2)*0x1p-23*(abs+math.Abs(cij)) + 1e-30
		}
	}
	return want, bound
}

func TestGemmBF16(t *testing.T) {
	// With the assembly where the CPU has it, then with the Go kernel and
	// packing that run where it has not.
	kernels := []bool{false}
	if bf16Available {
		kernels = []bool{true, false}
	}
	defer func(saved bool) { bf16Available = saved }(bf16Available)
	for _, asm := range kernels {
		bf16Available = asm
		testGemmBF16(t)
	}
}

func testGemmBF16(t *testing.T) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []struct{ m, n, k int }{
		{2, 2, 1}, {3, 5, 2}, {7, 33, 3}, {8, 32, 256}, {9, 31, 257},
		{16, 1024, 256}, // a recurrent step: (B×H)·(H×4H)
		{17, 70, 600}, {200, 100, 50},
		{256, 512, 300}, // large: split over goroutines by rows
		{40, 2048, 260}, // by columns
	} {
		for _, tr := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
			for _, ab := range [][2]float32{{1, 0}, {0.5, 1}, {-2, -0.25}} {
				transA, transB := tr[0], tr[1]
				alpha, beta := ab[0], ab[1]
				name := fmt.Sprintf("%dx%dx%d/tA=%v,tB=%v/α=%v,β=%v", s.m, s.n, s.k, transA, transB, alpha, beta)
				rowsA, colsA := s.m, s.k
				if transA {
					rowsA, colsA = s.k, s.m
				}
				rowsB, colsB := s.k, s.n
				if transB {
					rowsB, colsB = s.n, s.k
				}
				lda, ldb, ldc := colsA+3, colsB+1, s.n+2
				a := randMatrix(rng, rowsA, lda)
				b := randMatrix(rng, rowsB, ldb)
				c := randMatrix(rng, s.m, ldc)
				want, bound := refBF16(transA, transB, s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, c, ldc)
				check := func(how string, got []float32) {
					t.Helper()
					for i := range s.m {
						for j := range s.n {
							if d := math.Abs(float64(got[i*ldc+j]) - want[i*s.n+j]); d > bound[i*s.n+j] {
								t.Fatalf("%s %s: C[%d][%d] = %v, want %v (bound %g)", name, how, i, j, got[i*ldc+j], want[i*s.n+j], bound[i*s.n+j])
							}
						}
						for j := s.n; j < ldc && i < s.m-1; j++ {
							if got[i*ldc+j] != c[i*ldc+j] {
								t.Fatalf("%s %s: C[%d][%d], past the columns, changed", name, how, i, j)
							}
						}
					}
				}
				withBF16(t, func() {
					got := append([]float32(nil), c...)
					Gemm(transA, transB, s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, got, ldc)
					check("Gemm", got)
					if transA {
						return // GemmPacked's op(A) transposes alike; one pass is enough
					}
					var p PackedB
					p.Pack(transB, s.k, s.n, b, ldb)
					got = append([]float32(nil), c...)
					GemmPacked(false, s.m, alpha, a, lda, &p, beta, got, ldc)
					check("GemmPacked", got)
				})
			}
		}
	}
}

// randMatrix is rows×ld random values in [−1, 1).
func randMatrix(rng *rand.Rand, rows, ld int) []float32 {
	x := make([]float32, rows*ld)
	for i := range x {
		x[i] = 2*rng.Float32() - 1
	}
	return x
}

// TestBF16Switch checks SetBF16's contract: an error where no kernel can
// run, float32 matrix–vector products whatever the switch, and a PackedB
// that keeps the precision it was packed in.
func TestBF16Switch(t *testing.T) {
	err := SetBF16(true)
	if bf16Available != (err == nil) || (err != nil && !errors.Is(err, ErrNoBF16)) {
		t.Fatalf("SetBF16(true) = %v where bf16Available = %v", err, bf16Available)
	}
	SetBF16(false)
	rng := rand.New(rand.NewPCG(5, 6))
	const k, n = 300, 40
	a := randMatrix(rng, 1, k)
	b := randMatrix(rng, k, n)
	want := make([]float32, n)
	Gemm(false, false, 1, n, k, 1, a, k, b, n, 0, want, n)
	var p32 PackedB
	p32.Pack(false, k, n, b, n)
	wantPacked := make([]float32, n)
	GemmPacked(false, 1, 1, a, k, &p32, 0, wantPacked, n)
	withBF16(t, func() {
		got := make([]float32, n)
		Gemm(false, false, 1, n, k, 1, a, k, b, n, 0, got, n)
		if !slicesEqual(got, want) {
			t.Error("a one-row Gemm changed under bf16: matrix–vector products should stay float32")
		}
		GemmPacked(false, 1, 1, a, k, &p32, 0, got, n)
		if !slicesEqual(got, wantPacked) {
			t.Error("a PackedB packed in float32 gave another result under bf16")
		}
	})
}

func slicesEqual(a, b []float32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

// TestBF16Pack checks the vector rounding of the packing routines against
// bf16Pair, NaN, infinities, ties and subnormals included.
func TestBF16Pack(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	special := []uint32{0x7fc00000, 0x7f800001, 0xffffffff, 0x7f800000, 0xff800000, 0x7f7fffff,
		0x3f808000, 0x3f818000, 0x3f807fff, 0x80000000, 0x00000001, 0x0000ffff, 0x80018000}
	const n = 96
	x0, x1 := make([]float32, 2*n), make([]float32, 2*n)
	for i := range x0 {
		x0[i], x1[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
		if i < len(special) {
			x0[i] = math.Float32frombits(special[i])
			x1[len(x1)-1-i] = math.Float32frombits(special[i])
		}
	}
	for _, alpha := range []float32{1, -0.75} {
		for _, w := range []int{8, 32} {
			const stride = 40
			got := make([]uint32, n/w*stride)
			bf16Rows(n, w, x0, x1, alpha, got, stride)
			for j := range n {
				if g, want := got[j/w*stride+j%w], bf16Pair(alpha*x0[j], alpha*x1[j]); g != want {
					t.Fatalf("bf16Rows w=%d α=%v: word %d = %#08x, want %#08x", w, alpha, j, g, want)
				}
			}
		}
		const ld = 2*n + 5
		x := make([]float32, 8*ld)
		for r := range 8 {
			copy(x[r*ld:], x0)
			x[r*ld+r], x[r*ld+2*n-1-r] = x[r*ld+2*n-1-r], x[r*ld+r]
		}
		for _, stride := range []int{8, 32} {
			got := make([]uint32, (n/2-1)*stride+8)
			bf16PairsT8(n/2, x, ld, alpha, got, stride)
			for r := range 8 {
				for p := range n / 2 {
					if want := bf16Pair(alpha*x[r*ld+2*p], alpha*x[r*ld+2*p+1]); got[p*stride+r] != want {
						t.Fatalf("bf16PairsT8 α=%v stride %d: row %d pair %d = %#08x, want %#08x", alpha, stride, r, p, got[p*stride+r], want)
					}
				}
			}
		}
	}
}
