package models_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func xentInputs(targets []float64, weights []float64, V int, seed uint64) []*tensor.Dense {
	r := rand.New(rand.NewPCG(seed, 3))
	N := len(targets)
	return []*tensor.Dense{
		modeltest.Random(r, 2, N, V),
		tensor.New(tensor.WithShape(N), tensor.WithBacking(targets)),
		tensor.New(tensor.WithShape(N), tensor.WithBacking(weights)),
	}
}

func TestCrossEntropyValue(t *testing.T) {
	// Two rows, V = 3: row 0 logits (0, ln 2, 0) → p = (1/4, 1/2, 1/4), target 1;
	// row 1 is padding.
	in := []*tensor.Dense{
		tensor.New(tensor.WithShape(2, 3), tensor.WithBacking([]float64{0, math.Ln2, 0, 5, -5, 9})),
		tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{1, models.PadID})),
		tensor.New(tensor.WithShape(2), tensor.WithBacking([]float64{0.5, 0.5})),
	}
	tests := []struct {
		eps  float64
		want float64
	}{
		{0, 0.5 * math.Ln2},
		// ε = 0.3: (0.7 + 0.1)·ln 2 + 0.1·ln 4 + 0.1·ln 4, halved.
		{0.3, 0.5 * (0.8*math.Ln2 + 0.2*2*math.Ln2)},
	}
	for _, tc := range tests {
		g := gorgonia.NewGraph()
		var nodes gorgonia.Nodes
		for i, x := range in {
			// Unnamed input nodes of one type and shape are merged by
			// gorgonia's hash-consing: every input needs its own name.
			nodes = append(nodes, gorgonia.NodeFromAny(g, x, gorgonia.WithName(fmt.Sprint("in", i))))
		}
		loss, err := models.CrossEntropy(nodes[0], nodes[1], nodes[2], tc.eps)
		if err != nil {
			t.Fatal(err)
		}
		vm := gorgonia.NewTapeMachine(g)
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		if got := loss.Value().Data().(float64); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("ε=%v: loss %v, want %v", tc.eps, got, tc.want)
		}
		vm.Close()
	}
}

func TestCrossEntropyGradients(t *testing.T) {
	tests := []struct {
		name    string
		targets []float64
		weights []float64
		eps     float64
	}{
		{"plain", []float64{0, 3, 1}, []float64{1, 1, 1}, 0},
		{"weighted with padding", []float64{2, models.PadID, 4, 0}, []float64{0.25, 0.25, 0.5, 0}, 0},
		{"label smoothing", []float64{1, 4}, []float64{0.5, 0.5}, 0.1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			eps := tc.eps
			in := xentInputs(tc.targets, tc.weights, 5, 1)
			modeltest.CheckGradients(t, func() models.Kernel { return models.NewXentKernel(eps) }, in, nil)
		})
	}
}

func TestCrossEntropyRejectsBadInput(t *testing.T) {
	g := gorgonia.NewGraph()
	in := xentInputs([]float64{7}, []float64{1}, 5, 2) // target 7 ≥ V
	var nodes gorgonia.Nodes
	for i, x := range in {
		nodes = append(nodes, gorgonia.NodeFromAny(g, x, gorgonia.WithName(fmt.Sprint("in", i))))
	}
	if _, err := models.CrossEntropy(nodes[0], nodes[1], nodes[2], 1); err == nil {
		t.Error("smoothing 1 accepted")
	}
	if _, err := models.CrossEntropy(nodes[0], nodes[1], nodes[2], 0); err != nil {
		t.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err == nil {
		t.Error("target id 7 with V = 5 accepted")
	}
}

func TestLogSoftmax(t *testing.T) {
	x := []float32{1, 2, 3, 1000, 1000, 1000}
	models.LogSoftmax(x, x, 3)
	for r := 0; r < 2; r++ {
		var s float64
		for _, v := range x[r*3 : r*3+3] {
			s += math.Exp(float64(v))
		}
		if math.Abs(s-1) > 1e-4 { // float32 rounding of lse ≈ 1000
			t.Errorf("row %d: Σ exp = %v", r, s)
		}
	}
}
