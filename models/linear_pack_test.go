package models_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// TestLinearForwardPacked checks ForwardPacked against Forward for 1 to 7
// rows, with and without a bias, and that a pack of another shape panics.
func TestLinearForwardPacked(t *testing.T) {
	const I, O = 37, 45
	r := rand.New(rand.NewPCG(3, 5))
	for _, noBias := range []bool{false, true} {
		ps := models.NewParams(tensor.Float32, r)
		l := models.NewLinear(ps, "l", I, O, &models.LinearOptions{NoBias: noBias})
		if !noBias {
			for i := range O { // a bias of zeros would hide a lost bias
				l.B.Value.Data().([]float32)[i] = float32(r.NormFloat64())
			}
		}
		pack := l.Pack()
		for _, B := range []int{1, 2, 3, 5, 7} {
			x := make([]float32, B*I)
			for i := range x {
				x[i] = float32(r.NormFloat64())
			}
			want := l.Forward(nil, x, B)
			got := l.ForwardPacked([]float32{42}, x, B, pack)
			for i := range want {
				if d := math.Abs(float64(got[i] - want[i])); d > 1e-5 {
					t.Fatalf("no bias %v, B=%d: value %d is %g packed, %g not", noBias, B, i, got[i], want[i])
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a pack of another layer's shape did not panic")
		}
	}()
	ps := models.NewParams(tensor.Float32, r)
	a, b := models.NewLinear(ps, "a", I, O, nil), models.NewLinear(ps, "b", O, I, nil)
	a.ForwardPacked(nil, make([]float32, I), 1, b.Pack())
}
