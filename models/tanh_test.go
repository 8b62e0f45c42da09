package models

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTanhAdd checks both float32 loops (assembly where available, and the
// Go loop) against math.Tanh over the whole range, with lengths that leave
// tails after the eight-wide blocks.
func TestTanhAdd(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	saved := useTanhAVX2
	defer func() { useTanhAVX2 = saved }()
	for _, asm := range []bool{false, saved} {
		useTanhAVX2 = asm
		for _, n := range []int{1, 7, 8, 9, 64, 100, 1027} {
			a, b, dst := make([]float32, n), make([]float32, n), make([]float32, n)
			for i := range a {
				a[i] = float32(r.NormFloat64() * 4)
				b[i] = float32(r.NormFloat64() * 4)
			}
			a[0] = 50 // saturates
			TanhAdd(dst, a, b)
			for i := range dst {
				want := math.Tanh(float64(a[i] + b[i]))
				if d := math.Abs(float64(dst[i]) - want); d > 3e-7 {
					t.Fatalf("asm=%v n=%d: tanh(%v) = %v, want %v (|Δ| %.2g)", asm, n, a[i]+b[i], dst[i], want, d)
				}
			}
		}
	}
}

func BenchmarkTanhAdd(b *testing.B) {
	const n = 100 * 256
	r := rand.New(rand.NewPCG(2, 2))
	x, y, dst := make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
	}
	saved := useTanhAVX2
	defer func() { useTanhAVX2 = saved }()
	for _, asm := range []bool{false, saved} {
		useTanhAVX2 = asm
		name := "go"
		if asm {
			name = "avx2"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(4 * n)
			b.ReportAllocs()
			for range b.N {
				TanhAdd(dst, x, y)
			}
		})
	}
}
