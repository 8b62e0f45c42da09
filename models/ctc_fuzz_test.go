package models_test

import (
	"math"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/tensor"
)

// FuzzCTC checks the CTC kernel on arbitrary small problems: the loss
// matches the log-space reference (or is the documented 0 when
// infeasible), and the gradient is finite, zero past the input length and,
// on each real frame, softmax minus a distribution, so its row sums to 0.
func FuzzCTC(f *testing.F) {
	f.Add(uint8(5), uint8(3), uint8(0), []byte{1, 2, 1}, []byte{10, 200, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150})
	f.Add(uint8(2), uint8(2), uint8(1), []byte{0, 0}, []byte{255, 0, 0, 255})
	f.Add(uint8(7), uint8(4), uint8(3), []byte{}, []byte{1})
	f.Add(uint8(9), uint8(5), uint8(2), []byte{1, 1, 1, 3}, []byte{0, 255, 128})
	f.Fuzz(func(t *testing.T, tIn, vIn, blankIn uint8, targetIn, logitIn []byte) {
		T, V := int(tIn%12), 2+int(vIn%5)
		blank := int(blankIn) % V
		var target []int
		for _, b := range targetIn[:min(len(targetIn), 8)] {
			label := int(b) % (V - 1)
			if label >= blank {
				label++ // any label but the blank
			}
			target = append(target, label)
		}
		S := max(len(target), 1)
		const Tpad = 12
		logits := make([]float64, Tpad*V)
		for i := range logits {
			if len(logitIn) > 0 {
				logits[i] = (float64(logitIn[i%len(logitIn)]) - 128) / 4 // up to ±32
			}
		}
		tg := make([]int, S)
		copy(tg, target)
		in := []*tensor.Dense{
			tensor.New(tensor.WithShape(1, Tpad, V), tensor.WithBacking(logits)),
			ints(tensor.Float64, []int{1, S}, tg...),
			ints(tensor.Float64, []int{1}, T),
			ints(tensor.Float64, []int{1}, len(target)),
		}
		k := models.NewCTCKernel(blank)
		out, err := modeltest.Eager(k, in)
		if err != nil {
			t.Fatal(err)
		}
		loss := out.Data().([]float64)[0]
		want := 0.0
		if models.CTCFeasible(T, target) && T > 0 {
			want = modeltest.CTCNLL(logits, T, V, target, blank)
		}
		if math.Abs(loss-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Fatalf("T %d V %d blank %d target %v: loss %v, reference %v", T, V, blank, target, loss, want)
		}
		grad := tensor.New(tensor.Of(tensor.Float64), tensor.WithShape(1, Tpad, V))
		dLoss := tensor.New(tensor.WithShape(1), tensor.WithBacking([]float64{1}))
		if err := k.Backward([]*tensor.Dense{grad, nil, nil, nil}, dLoss, out, in); err != nil {
			t.Fatal(err)
		}
		g := grad.Data().([]float64)
		for tt := range Tpad {
			var sum float64
			for v := range V {
				x := g[tt*V+v]
				if math.IsNaN(x) || math.IsInf(x, 0) || (tt >= T && x != 0) {
					t.Fatalf("gradient[%d, %d] = %v (T %d)", tt, v, x, T)
				}
				sum += x
			}
			if math.Abs(sum) > 1e-9 {
				t.Fatalf("gradient row %d sums to %v", tt, sum)
			}
		}
	})
}
