package models_test

import (
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestSliceConcatGradients checks forward values and the graph gradient of
// L = Σ R ⊙ f(x) for the fused Slice, Select and Concat. The cases at widths
// and offsets that are multiples of 256 are the regression: gorgonia's own
// Slice hashes its bounds as bytes, so [0:256] and [256:512] of one node
// merged (SplitState's h was c, and a Concat of two 256-wide parts handed
// the first part's gradient to both).
//
// Each input element holds a distinct id, so the forward output says which
// input element every output element copies, and the expected gradient of
// an input element is the sum of R over the output elements that copy it.
func TestSliceConcatGradients(t *testing.T) {
	tests := []struct {
		name   string
		shapes [][]int
		build  func(in gorgonia.Nodes) (*gorgonia.Node, error)
	}{
		{"Concat 256|256", [][]int{{2, 256}, {2, 256}}, func(in gorgonia.Nodes) (*gorgonia.Node, error) {
			return models.Concat(1, in...)
		}},
		{"Concat rows, 3 parts", [][]int{{2, 3}, {1, 3}, {2, 3}}, func(in gorgonia.Nodes) (*gorgonia.Node, error) {
			return models.Concat(0, in...)
		}},
		{"Concat middle axis", [][]int{{2, 1, 3}, {2, 2, 3}}, func(in gorgonia.Nodes) (*gorgonia.Node, error) {
			return models.Concat(1, in...)
		}},
		{"SplitState h+c at H=256", [][]int{{2, 512}}, func(in gorgonia.Nodes) (*gorgonia.Node, error) {
			h, c, err := models.NewLSTM(models.NewParams(tensor.Float64, rand.New(rand.NewPCG(1, 1))), "l", 1, 256).SplitState(in[0])
			if err != nil {
				return nil, err
			}
			return models.Concat(1, c, h) // [c | h]: merged halves would repeat one
		}},
		{"Slice middle axis", [][]int{{2, 5, 3}}, func(in gorgonia.Nodes) (*gorgonia.Node, error) {
			return models.Slice(in[0], 1, 1, 4)
		}},
		{"Select steps 0 and 256", [][]int{{257, 2, 3}}, func(in gorgonia.Nodes) (*gorgonia.Node, error) {
			a, err := models.Select(in[0], 0, 256)
			if err != nil {
				return nil, err
			}
			b, err := models.Select(in[0], 0, 0)
			if err != nil {
				return nil, err
			}
			return models.Concat(0, a, b)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkCopyGradients(t, tc.shapes, tc.build)
		})
	}
}

func checkCopyGradients(t *testing.T, shapes [][]int, build func(gorgonia.Nodes) (*gorgonia.Node, error)) {
	t.Helper()
	g := gorgonia.NewGraph()
	in := make(gorgonia.Nodes, len(shapes))
	owner := map[float64][2]int{} // id → (input, element)
	for i, s := range shapes {
		x := tensor.New(tensor.Of(tensor.Float64), tensor.WithShape(s...))
		data := x.Data().([]float64)
		for j := range data {
			data[j] = float64(i*1_000_000 + j + 1)
			owner[data[j]] = [2]int{i, j}
		}
		in[i] = gorgonia.NodeFromAny(g, x, gorgonia.WithName("x"+string(rune('0'+i))))
	}
	out, err := build(in)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 5))
	rt := tensor.New(tensor.Of(tensor.Float64), tensor.WithShape(out.Shape().Clone()...))
	rs := rt.Data().([]float64)
	for k := range rs {
		rs[k] = 2*r.Float64() - 1
	}
	loss := gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(out, gorgonia.NodeFromAny(g, rt, gorgonia.WithName("R"))))))
	grads, err := gorgonia.Grad(loss, in...)
	if err != nil {
		t.Fatal(err)
	}
	var outV gorgonia.Value
	gorgonia.Read(out, &outV)
	gradV := make([]gorgonia.Value, len(in))
	for i := range grads {
		gorgonia.Read(grads[i], &gradV[i])
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	want := make([][]float64, len(in))
	for i, s := range shapes {
		want[i] = make([]float64, tensor.Shape(s).TotalSize())
	}
	for k, v := range outV.(*tensor.Dense).Materialize().(*tensor.Dense).Data().([]float64) {
		o, ok := owner[v]
		if !ok {
			t.Fatalf("output element %d is %v, no input element", k, v)
		}
		want[o[0]][o[1]] += rs[k]
	}
	for i := range in {
		got := gradV[i].(*tensor.Dense).Materialize().(*tensor.Dense).Data().([]float64)
		for j := range got {
			if got[j] != want[i][j] {
				t.Errorf("∂L/∂x%d[%d] = %v, want %v", i, j, got[j], want[i][j])
				break
			}
		}
	}
}
