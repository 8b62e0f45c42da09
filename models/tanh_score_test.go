package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestTanhScore checks TanhScore and TanhScoreBackward in float32 (the
// assembly loop where available, and the Go loop) against a float64
// reference, with and without the third term, writing and adding dp, over
// lengths that leave tails after the eight-wide blocks.
func TestTanhScore(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	saved := useTanhAVX2
	defer func() { useTanhAVX2 = saved }()
	rnd := func(n int, scale float64) []float32 {
		s := make([]float32, n)
		for i := range s {
			s[i] = float32(r.NormFloat64() * scale)
		}
		return s
	}
	for _, asm := range []bool{false, saved} {
		useTanhAVX2 = asm
		for _, n := range []int{1, 7, 8, 9, 128, 131} {
			for _, withC := range []bool{false, true} {
				for _, add := range []bool{false, true} {
					name := fmt.Sprintf("asm=%v/n=%d/c=%v/add=%v", asm, n, withC, add)
					a, b, v := rnd(n, 2), rnd(n, 1), rnd(n, 1)
					a[0] = 40 // saturates
					var c []float32
					if withC {
						c = rnd(n, 1)
					}
					dp, dv, dq := rnd(n, 1), rnd(n, 1), rnd(n, 1)
					dp0, dv0, dq0 := append([]float32(nil), dp...), append([]float32(nil), dv...), append([]float32(nil), dq...)
					const d = 0.7
					var want float64
					for i := range n {
						x := float64(a[i]) + float64(b[i])
						if c != nil {
							x += float64(c[i])
						}
						want += float64(v[i]) * math.Tanh(x)
					}
					if got := TanhScore(a, b, c, v); math.Abs(float64(got)-want) > 1e-5*(1+math.Abs(want)) {
						t.Errorf("%s: TanhScore = %v, want %v", name, got, want)
					}
					TanhScoreBackward(dp, dv, dq, a, b, c, v, d, add)
					for i := range n {
						x := float64(a[i]) + float64(b[i])
						if c != nil {
							x += float64(c[i])
						}
						y := math.Tanh(x)
						g := d * float64(v[i]) * (1 - y*y)
						wantDp := g
						if add {
							wantDp += float64(dp0[i])
						}
						for _, q := range []struct {
							what      string
							got, want float64
						}{
							{"dv", float64(dv[i]), float64(dv0[i]) + d*y},
							{"dp", float64(dp[i]), wantDp},
							{"dq", float64(dq[i]), float64(dq0[i]) + g},
						} {
							if math.Abs(q.got-q.want) > 1e-6 {
								t.Fatalf("%s: %s[%d] = %v, want %v", name, q.what, i, q.got, q.want)
							}
						}
					}
				}
			}
		}
	}
}

func TestTanhScoreFloat64(t *testing.T) {
	a, b, c, v := []float64{0.1, -2}, []float64{0.3, 0.5}, []float64{-0.2, 0.1}, []float64{2, -1}
	want := 2*math.Tanh(0.2) - math.Tanh(-1.4)
	if got := TanhScore(a, b, c, v); math.Abs(got-want) > 1e-15 {
		t.Errorf("TanhScore = %v, want %v", got, want)
	}
}
