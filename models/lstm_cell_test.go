package models

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCellForwardFloat32 checks the float32 cell (assembly where
// available, and the Go loop) against the float64 one, with and without a
// previous cell, in place (c = c₋₁) and with widths that leave tails after
// the eight-wide blocks.
func TestCellForwardFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	saved := useTanhAVX2
	defer func() { useTanhAVX2 = saved }()
	for _, asm := range []bool{false, saved} {
		useTanhAVX2 = asm
		for _, H := range []int{1, 7, 8, 13, 64, 256} {
			for _, prev := range []bool{false, true} {
				const rows = 3
				z32, c32, h32 := make([]float32, rows*4*H), make([]float32, rows*H), make([]float32, rows*H)
				z64, cp64, c64, h64 := make([]float64, rows*4*H), make([]float64, rows*H), make([]float64, rows*H), make([]float64, rows*H)
				for i := range z32 {
					z32[i] = float32(r.NormFloat64() * 3)
					z64[i] = float64(z32[i])
				}
				z32[0] = 40 // saturates
				z64[0] = 40
				var cp32 []float32
				var cp64s []float64
				if prev {
					for i := range c32 {
						c32[i] = float32(r.NormFloat64() * 2)
						cp64[i] = float64(c32[i])
					}
					cp32, cp64s = c32, cp64 // in place
				}
				cellForward(H, 0, rows, z32, cp32, H, c32, H, h32, H)
				cellForward(H, 0, rows, z64, cp64s, H, c64, H, h64, H)
				for _, p := range []struct {
					name string
					got  []float32
					want []float64
				}{{"gates", z32, z64}, {"c", c32, c64}, {"h", h32, h64}} {
					for i := range p.want {
						if d := math.Abs(float64(p.got[i]) - p.want[i]); d > 1e-6*math.Max(1, math.Abs(p.want[i])) {
							t.Fatalf("asm=%v H=%d prev=%v: %s[%d] = %v, want %v (|Δ| %.2g)", asm, H, prev, p.name, i, p.got[i], p.want[i], d)
						}
					}
				}
			}
		}
	}
}

// TestCellBackwardFloat32 checks the float32 cell gradient (assembly where
// available, and the Go loop) against the float64 one, with and without a
// previous cell, writing dz over the activations and dc₋₁ over dc as the
// kernels do.
func TestCellBackwardFloat32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	saved := useTanhAVX2
	defer func() { useTanhAVX2 = saved }()
	for _, asm := range []bool{false, saved} {
		useTanhAVX2 = asm
		for _, H := range []int{1, 7, 8, 13, 64, 256} {
			for _, prev := range []bool{false, true} {
				const rows = 3
				n := rows * H
				a32, cp32, c32, dh32, dc32 := make([]float32, 4*n), make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
				for i := range a32 {
					a32[i] = float32(r.Float64()*2 - 1) // activations: i, f, o in (0, 1) would do, g in (−1, 1)
				}
				for _, s := range [][]float32{cp32, c32, dh32, dc32} {
					for i := range s {
						s[i] = float32(r.NormFloat64())
					}
				}
				a64, cp64, c64, dh64, dc64 := to64(a32), to64(cp32), to64(c32), to64(dh32), to64(dc32)
				if !prev {
					cp32, cp64 = nil, nil
				}
				cellBackward(H, 0, rows, a32, cp32, H, c32, H, dh32, H, dc32, H, a32, dc32, H)
				cellBackward(H, 0, rows, a64, cp64, H, c64, H, dh64, H, dc64, H, a64, dc64, H)
				for _, p := range []struct {
					name string
					got  []float32
					want []float64
				}{{"dz", a32, a64}, {"dc₋₁", dc32, dc64}} {
					for i := range p.want {
						if d := math.Abs(float64(p.got[i]) - p.want[i]); d > 1e-6*math.Max(1, math.Abs(p.want[i])) {
							t.Fatalf("asm=%v H=%d prev=%v: %s[%d] = %v, want %v (|Δ| %.2g)", asm, H, prev, p.name, i, p.got[i], p.want[i], d)
						}
					}
				}
			}
		}
	}
}

func to64(s []float32) []float64 {
	out := make([]float64, len(s))
	for i, v := range s {
		out[i] = float64(v)
	}
	return out
}

func BenchmarkCellForward(b *testing.B) {
	const rows, H = 16, 256
	r := rand.New(rand.NewPCG(4, 4))
	z0, z := make([]float32, rows*4*H), make([]float32, rows*4*H)
	cp, c, h := make([]float32, rows*H), make([]float32, rows*H), make([]float32, rows*H)
	for i := range z0 {
		z0[i] = float32(r.NormFloat64())
	}
	for i := range cp {
		cp[i] = float32(r.NormFloat64())
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
			b.ReportAllocs()
			for range b.N {
				copy(z, z0)
				cellForward(H, 0, rows, z, cp, H, c, H, h, H)
			}
		})
	}
}
