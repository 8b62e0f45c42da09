package attention

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestAdditiveBackwardDeterministic: the gradients shared by all rows of
// the batch (v, the location filters and their projection) are summed
// over blocks of rows that run on several goroutines; they must come out
// bit-identical whichever block finishes first and whatever GOMAXPROCS
// is, or a resumed training run would drift from an uninterrupted one.
// With more goroutines than cores the blocks finish in a different order
// from run to run.
func TestAdditiveBackwardDeterministic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const B, T, A, H, nf, C, K = 32, 40, 16, 12, 4, 1, 5
	r := rand.New(rand.NewPCG(1, 2))
	randn := func(n int) []float32 {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		return x
	}
	s := &additiveSpec{filters: nf, width: K, channels: C, sharpen: 1}
	x := &additiveArgs[float32]{B: B, T: T, A: A, H: H,
		proj: randn(B * T * A), query: randn(B * H), w: randn(H * A), v: randn(A),
		prev: randn(B * T), filters: randn(nf * C * K), uf: randn(nf * A)}
	alpha := make([]float32, B*T)
	additiveForward(s, x, alpha)
	dAlpha := randn(B * T)
	grads := func() *additiveArgs[float32] {
		g := &additiveArgs[float32]{B: B, T: T, A: A, H: H,
			proj: make([]float32, B*T*A), query: make([]float32, B*H), w: make([]float32, H*A), v: make([]float32, A),
			prev: make([]float32, B*T), filters: make([]float32, nf*C*K), uf: make([]float32, nf*A)}
		additiveBackward(s, x, g, alpha, dAlpha)
		return g
	}
	want := grads() // on one goroutine
	runtime.GOMAXPROCS(8)
	for i := range 50 {
		got := grads()
		for _, c := range []struct {
			name      string
			got, want []float32
		}{{"v", got.v, want.v}, {"uf", got.uf, want.uf}, {"filters", got.filters, want.filters}, {"w", got.w, want.w}} {
			if !slices.Equal(c.got, c.want) {
				t.Fatalf("run %d: gradient of %s differs from the one with GOMAXPROCS 1", i, c.name)
			}
		}
	}
}
