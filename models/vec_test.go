package models

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAxpyDot checks both float32 loops (assembly where available, and
// Go) against float64 sums, over lengths around the 8- and 32-lane blocks.
func TestAxpyDot(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	saved := useTanhAVX2
	defer func() { useTanhAVX2 = saved }()
	for _, asm := range []bool{false, saved} {
		useTanhAVX2 = asm
		for _, n := range []int{0, 1, 7, 8, 9, 31, 32, 33, 40, 100, 512, 517} {
			x, y := make([]float32, n), make([]float32, n+3)
			for i := range x {
				x[i] = float32(r.NormFloat64())
			}
			for i := range y {
				y[i] = float32(r.NormFloat64())
			}
			var want float64
			for i := range x {
				want += float64(x[i]) * float64(y[i])
			}
			if got := Dot(x, y); math.Abs(float64(got)-want) > 1e-5*float64(n+1) {
				t.Errorf("asm=%v n=%d: Dot = %v, want %v", asm, n, got, want)
			}
			y0 := append([]float32(nil), y...)
			Axpy(-0.75, x, y)
			for i := range y {
				w := float64(y0[i])
				if i < n {
					w += -0.75 * float64(x[i])
				}
				if math.Abs(float64(y[i])-w) > 1e-6 {
					t.Fatalf("asm=%v n=%d: y[%d] = %v, want %v", asm, n, i, y[i], w)
				}
			}
		}
	}
	if got := Dot([]float64{1, 2}, []float64{3, 4}); got != 11 {
		t.Errorf("float64 Dot = %v, want 11", got)
	}
}
