package models_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

func TestParamsDeterministicAndOrdered(t *testing.T) {
	build := func() *models.Params {
		ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(7, 7)))
		ps.New("enc.w", models.GlorotUniform, 4, 6)
		ps.New("enc.b", models.Zeros, 6)
		ps.New("dec.u", models.Orthogonal, 3, 12)
		return ps
	}
	a, b := build(), build()
	if got, want := a.Names(), []string{"enc.w", "enc.b", "dec.u"}; len(got) != 3 || got[0] != want[0] || got[2] != want[2] {
		t.Errorf("Names() = %v, want %v", got, want)
	}
	if a.Count() != 4*6+6+3*12 {
		t.Errorf("Count() = %d", a.Count())
	}
	for i, p := range a.All() {
		q := b.All()[i]
		for j, v := range p.F32() {
			if q.F32()[j] != v {
				t.Fatalf("%s[%d] differs between two builds with one seed", p.Name, j)
			}
		}
	}
	if _, ok := a.Get("enc.b"); !ok {
		t.Error(`Get("enc.b") not found`)
	}
}

func TestParamsNewPanicsOnProgrammerError(t *testing.T) {
	tests := []struct {
		name  string
		param string
		shape []int
	}{
		{"duplicate", "w", []int{2}},
		{"empty name", "", []int{2}},
		{"zero dim", "z", []int{2, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 1)))
			ps.New("w", models.Zeros, 2)
			defer func() {
				if recover() == nil {
					t.Errorf("New(%q, %v) did not panic", tc.param, tc.shape)
				}
			}()
			ps.New(tc.param, models.Zeros, tc.shape...)
		})
	}
}

func TestInitializers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	t.Run("glorot bound", func(t *testing.T) {
		dst := make([]float64, 30*50)
		models.GlorotUniform(rng, []int{30, 50}, dst)
		bound := math.Sqrt(6.0 / 80)
		var sq float64
		for _, v := range dst {
			if math.Abs(v) > bound {
				t.Fatalf("value %v outside ±%v", v, bound)
			}
			sq += v * v
		}
		// U(−a,a) has variance a²/3 = 2/(fan_in+fan_out).
		if got, want := sq/float64(len(dst)), 2.0/80; math.Abs(got-want) > 0.15*want {
			t.Errorf("variance %v, want ≈ %v", got, want)
		}
	})
	t.Run("orthogonal gate blocks", func(t *testing.T) {
		const h = 8
		dst := make([]float64, h*4*h)
		models.Orthogonal(rng, []int{h, 4 * h}, dst)
		for blk := 0; blk < 4; blk++ {
			for i := 0; i < h; i++ {
				for j := 0; j < h; j++ {
					var dot float64
					for r := 0; r < h; r++ {
						dot += dst[r*4*h+blk*h+i] * dst[r*4*h+blk*h+j]
					}
					want := 0.0
					if i == j {
						want = 1
					}
					if math.Abs(dot-want) > 1e-9 {
						t.Fatalf("block %d: column %d·%d = %v, want %v", blk, i, j, dot, want)
					}
				}
			}
		}
	})
	t.Run("orthogonal tall", func(t *testing.T) {
		dst := make([]float64, 10*3)
		models.Orthogonal(rng, []int{10, 3}, dst)
		for i := 0; i < 3; i++ {
			var n float64
			for r := 0; r < 10; r++ {
				n += dst[r*3+i] * dst[r*3+i]
			}
			if math.Abs(n-1) > 1e-9 {
				t.Errorf("column %d has norm² %v", i, n)
			}
		}
	})
	t.Run("lstm forget bias", func(t *testing.T) {
		dst := make([]float64, 12)
		models.LSTMBias(rng, []int{12}, dst)
		for i, v := range dst {
			want := 0.0
			if i >= 3 && i < 6 {
				want = 1
			}
			if v != want {
				t.Errorf("bias[%d] = %v, want %v (gates [i f o g])", i, v, want)
			}
		}
	})
}
