package caption

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
)

// TestLogSoftmaxRows checks the decoder's log softmax against
// models.LogSoftmax (float64 math.Exp) on rows of the vocabulary's size
// and on rows shorter than the assembly's eight lanes.
func TestLogSoftmaxRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := []struct {
		name       string
		rows, V    int
		scale, off float64
		negInf     bool
	}{
		{"one row, vocabulary-sized", 1, 2537, 8, 0, false},
		{"a beam's rows", 20, 2537, 8, 0, false},
		{"large logits", 3, 1000, 5, 300, false},
		{"rows shorter than eight", 4, 5, 3, 0, false},
		{"some words ruled out", 6, 777, 4, 0, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := make([]float32, c.rows*c.V)
			for i := range x {
				x[i] = float32(c.off + c.scale*rng.NormFloat64())
				if c.negInf && i%3 == 0 {
					x[i] = float32(math.Inf(-1))
				}
			}
			want := make([]float32, len(x))
			models.LogSoftmax(want, x, c.V)
			got := append([]float32(nil), x...)
			logSoftmaxRows(got, c.V)
			for i := range got {
				if math.IsInf(float64(want[i]), -1) {
					if !math.IsInf(float64(got[i]), -1) {
						t.Fatalf("element %d: %v, want −Inf", i, got[i])
					}
					continue
				}
				if d := math.Abs(float64(got[i] - want[i])); d > 1e-5*math.Max(1, math.Abs(float64(want[i]))) {
					t.Fatalf("element %d: %v, want %v (Δ %.3g)", i, got[i], want[i], d)
				}
			}
		})
	}
}
