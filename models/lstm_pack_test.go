package models_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// TestLSTMStepPacked checks StepPacked against Step for 1 to 5 rows.
func TestLSTMStepPacked(t *testing.T) {
	const I, H = 37, 19
	r := rand.New(rand.NewPCG(3, 4))
	cell := models.NewLSTM(models.NewParams(tensor.Float32, r), "cell", I, H)
	pack := cell.Pack()
	for _, B := range []int{1, 2, 3, 5} {
		x, prev := normals(r, B*I), normals(r, B*2*H)
		want, got := make([]float32, B*2*H), make([]float32, B*2*H)
		var ws models.LSTMWorkspace
		cell.Step(&ws, want, x, prev, B)
		cell.StepPacked(&ws, got, x, prev, B, pack)
		for i := range want {
			if d := math.Abs(float64(got[i] - want[i])); d > 1e-5 {
				t.Fatalf("B=%d: value %d is %g packed, %g not", B, i, got[i], want[i])
			}
		}
	}
}

// TestLSTMStepHead checks StepHead, given the tail's product, against
// Step on the whole input, for 1 to 5 rows and heads from one value to
// the whole input.
func TestLSTMStepHead(t *testing.T) {
	const I, H = 37, 19
	r := rand.New(rand.NewPCG(5, 6))
	cell := models.NewLSTM(models.NewParams(tensor.Float32, r), "cell", I, H)
	wx := cell.Wx.Value.Data().([]float32) // (I, 4H)
	for _, head := range []int{1, 12, I} {
		pack := cell.PackHead(head)
		for _, B := range []int{1, 2, 3, 5} {
			x, prev := normals(r, B*I), normals(r, B*2*H)
			xHead, tail := make([]float32, 0, B*head), make([]float32, B*4*H)
			for b := range B {
				xHead = append(xHead, x[b*I:b*I+head]...)
				for j := head; j < I; j++ {
					for g := range 4 * H {
						tail[b*4*H+g] += x[b*I+j] * wx[j*4*H+g]
					}
				}
			}
			want, got := make([]float32, B*2*H), make([]float32, B*2*H)
			var ws models.LSTMWorkspace
			cell.Step(&ws, want, x, prev, B)
			cell.StepHead(&ws, got, xHead, tail, prev, B, pack)
			for i := range want {
				if d := math.Abs(float64(got[i] - want[i])); d > 1e-5 {
					t.Fatalf("head %d, B=%d: value %d is %g from the head, %g whole", head, B, i, got[i], want[i])
				}
			}
		}
	}
}

// normals returns n standard normal values drawn from r.
func normals(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}
