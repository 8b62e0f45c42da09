//go:build !openblas

package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/gorgonia"
)

// TestSgemmBLASInstalled checks that gonum's blas32 and gorgonia use the
// package's kernels in the default build.
func TestSgemmBLASInstalled(t *testing.T) {
	if _, ok := blas32.Implementation().(sgemmBLAS); !ok {
		t.Errorf("blas32.Implementation() is %T, want sgemmBLAS", blas32.Implementation())
	}
	if _, ok := gorgonia.WhichBLAS().(sgemmBLAS); !ok {
		t.Errorf("gorgonia.WhichBLAS() is %T, want sgemmBLAS", gorgonia.WhichBLAS())
	}
}

// TestSgemmBLAS compares sgemmBLAS's Sgemm and Sgemv with gonum's (the
// kernels themselves, assembly and Go, are tested in internal/sgemm) on
// every transpose, unit and other strides (which go to gonum), and β = 0
// over NaN.
func TestSgemmBLAS(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	rnd := func(size int) []float32 {
		s := make([]float32, size)
		for i := range s {
			s[i] = float32(r.NormFloat64())
		}
		return s
	}
	near := func(t *testing.T, got, want []float32, k int) {
		t.Helper()
		for i := range got {
			if d := math.Abs(float64(got[i] - want[i])); d > 1e-5*float64(k)*(1+math.Abs(float64(want[i]))) || math.IsNaN(float64(got[i])) {
				t.Fatalf("element %d = %g, want %g", i, got[i], want[i])
			}
		}
	}
	const sentinel = 12345.5 // between the elements of a strided y
	for _, tA := range []blas.Transpose{blas.NoTrans, blas.Trans, blas.ConjTrans} {
		for _, s := range []struct{ m, n, incX, incY int }{{1, 1, 1, 1}, {7, 33, 1, 1}, {40, 1, 1, 1}, {1, 50, 1, 1}, {19, 23, 2, 1}, {19, 23, 1, -3}} {
			for _, beta := range []float32{0, 0.5} {
				t.Run(fmt.Sprintf("Sgemv_%c_%dx%d_inc%d,%d_beta%g", tA, s.m, s.n, s.incX, s.incY, beta), func(t *testing.T) {
					lenX, lenY := s.n, s.m
					if tA != blas.NoTrans {
						lenX, lenY = s.m, s.n
					}
					lda := s.n + 2
					a, x := rnd(s.m*lda), rnd(1+(lenX-1)*abs(s.incX))
					y := make([]float32, 1+(lenY-1)*abs(s.incY))
					for i := range y {
						y[i] = sentinel // between the elements of a strided y
					}
					want := append([]float32(nil), y...)
					for i := range lenY {
						y[i*abs(s.incY)] = float32(r.NormFloat64())
						want[i*abs(s.incY)] = y[i*abs(s.incY)]
						if beta == 0 {
							// Not to be read; the reference gets zeros.
							y[i*abs(s.incY)], want[i*abs(s.incY)] = float32(math.NaN()), 0
						}
					}
					gonum.Implementation{}.Sgemv(tA, s.m, s.n, 0.7, a, lda, x, s.incX, beta, want, s.incY)
					sgemmBLAS{}.Sgemv(tA, s.m, s.n, 0.7, a, lda, x, s.incX, beta, y, s.incY)
					near(t, y, want, max(s.m, s.n))
				})
			}
		}
		for _, tB := range []blas.Transpose{blas.NoTrans, blas.Trans} {
			t.Run(fmt.Sprintf("Sgemm_%c%c", tA, tB), func(t *testing.T) {
				const m, n, k = 13, 21, 17
				a, b, c := rnd(m*k), rnd(k*n), rnd(m*n)
				lda, ldb := k, n
				if tA != blas.NoTrans {
					lda = m
				}
				if tB != blas.NoTrans {
					ldb = k
				}
				want := append([]float32(nil), c...)
				gonum.Implementation{}.Sgemm(tA, tB, m, n, k, 1.5, a, lda, b, ldb, 0.25, want, n)
				sgemmBLAS{}.Sgemm(tA, tB, m, n, k, 1.5, a, lda, b, ldb, 0.25, c, n)
				near(t, c, want, k)
			})
		}
	}
	t.Run("bad transpose", func(t *testing.T) {
		defer func() {
			if recover() == nil {
				t.Error("Sgemm with blas.Transpose('x') did not panic")
			}
		}()
		sgemmBLAS{}.Sgemm('x', blas.NoTrans, 1, 1, 1, 1, []float32{1}, 1, []float32{1}, 1, 0, []float32{0}, 1)
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
