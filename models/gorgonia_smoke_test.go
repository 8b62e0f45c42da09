package models_test

import (
	"math"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestGorgoniaRuns builds, differentiates and runs a small graph. Its real job
// is to link gorgonia into a test binary: without the pinned
// go4.org/unsafe/assume-no-moving-gc version every binary that imports
// gorgonia panics at start on Go ≥ 1.21, and this test would fail.
func TestGorgoniaRuns(t *testing.T) {
	g := gorgonia.NewGraph()
	w := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(2, 3), gorgonia.WithName("w"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(2, 3), tensor.WithBacking([]float64{1, 2, 3, 4, 5, 6}))))
	x := gorgonia.NewVector(g, tensor.Float64, gorgonia.WithShape(3), gorgonia.WithName("x"),
		gorgonia.WithValue(tensor.New(tensor.WithShape(3), tensor.WithBacking([]float64{1, 0, -1}))))
	y, err := gorgonia.Mul(w, x) // (2)
	if err != nil {
		t.Fatal(err)
	}
	loss, err := gorgonia.Sum(y)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := gorgonia.Grad(loss, w); err != nil {
		t.Fatal(err)
	}
	var lossVal gorgonia.Value
	gorgonia.Read(loss, &lossVal)
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(w))
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	// y = [1-3, 4-6] = [-2, -2]; Σy = -4; ∂Σy/∂w = 1·xᵀ for each row.
	if got := lossVal.Data().(float64); math.Abs(got+4) > 1e-12 {
		t.Errorf("loss = %v, want -4", got)
	}
	grad, err := w.Grad()
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{1, 0, -1, 1, 0, -1}
	for i, v := range grad.Data().([]float64) {
		if math.Abs(v-want[i]) > 1e-12 {
			t.Errorf("dw[%d] = %v, want %v", i, v, want[i])
		}
	}
}
