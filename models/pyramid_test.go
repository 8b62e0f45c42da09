package models_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestPyramidValues(t *testing.T) {
	x := tensor.New(tensor.WithShape(2, 3, 1), tensor.WithBacking([]float32{1, 2, 3, 4, 5, 6}))
	lengths := ints(tensor.Float32, []int{2}, 3, 1)
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 1)))
	for i, want := range [][]float32{
		{1, 2, 3, 0, 4, 0, 0, 0}, // odd T and odd lengths pair the last frame with zeros
		{2, 1},                   // ⌈3/2⌉, ⌈1/2⌉
	} {
		got := runGraph(t, ps, []*tensor.Dense{x, lengths}, func(_ *models.Binding, in gorgonia.Nodes) (*gorgonia.Node, error) {
			y, yl, err := models.Pyramid(in[0], in[1])
			return []*gorgonia.Node{y, yl}[i], err
		})
		if !slices.Equal(got.Data().([]float32), want) {
			t.Errorf("output %d = %v, want %v", i, got.Data(), want)
		}
	}
	eager, err := models.PyramidForward(nil, x.Data().([]float32), 2, 3, 1, []int{3, 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []float32{1, 2, 3, 0, 4, 0, 0, 0}; !slices.Equal(eager, want) {
		t.Errorf("eager = %v, want %v", eager, want)
	}
}

func TestPyramidGradients(t *testing.T) {
	cases := []struct {
		name    string
		T       int
		lengths []int
	}{
		{"even", 4, []int{4, 4}},
		{"odd T", 5, []int{5, 3}},
		{"padded", 4, []int{1, 0, 3}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 16))
			B := len(c.lengths)
			in := []*tensor.Dense{modeltest.Random(r, 1, B, c.T, 3), ints(tensor.Float64, []int{B}, c.lengths...)}
			checkGrad(t, models.NewPyramidKernel, in)
		})
	}
}

func TestPyramidalBiLSTMEagerMatchesGraph(t *testing.T) {
	const I, H = 3, 2
	cases := []struct {
		name    string
		layers  int
		T       int
		lengths []int
	}{
		{"one layer", 1, 4, []int{4, 2}},
		{"three layers odd", 3, 7, []int{7, 5, 1}},
		{"two layers even", 2, 8, []int{8, 3}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 17))
			ps := models.NewParams(tensor.Float32, r)
			p := models.NewPyramidalBiLSTM(ps, "listener", I, H, c.layers)
			B := len(c.lengths)
			x := toF32(modeltest.Random(r, 1, B, c.T, I))
			var ws models.LSTMWorkspace
			got, steps, lengths, err := p.Forward(&ws, nil, x.Data().([]float32), B, c.T, c.lengths)
			if err != nil {
				t.Fatal(err)
			}
			if want := p.OutputLength(c.T); steps != want {
				t.Errorf("eager steps %d, want OutputLength %d", steps, want)
			}
			for b, n := range c.lengths {
				if lengths[b] != p.OutputLength(n) {
					t.Errorf("eager lengths %v, want OutputLength of %v", lengths, c.lengths)
				}
			}
			for k, name := range []string{"encoding", "lengths"} {
				graph := runGraph(t, ps, []*tensor.Dense{x, ints(tensor.Float32, []int{B}, c.lengths...)}, func(b *models.Binding, in gorgonia.Nodes) (*gorgonia.Node, error) {
					y, yl, err := p.Apply(b, in[0], in[1])
					return []*gorgonia.Node{y, yl}[k], err
				})
				want := got
				if k == 1 {
					want = make([]float32, B)
					for b, n := range lengths {
						want[b] = float32(n)
					}
				} else if !graph.Shape().Eq(tensor.Shape{B, steps, 2 * H}) {
					t.Fatalf("graph shape %v, want (%d, %d, %d)", graph.Shape(), B, steps, 2*H)
				}
				if d := modeltest.MaxAbsDiff(graph.Data().([]float32), want); d > 1e-5 {
					t.Errorf("%s: eager and graph differ by %g", name, d)
				}
			}
		})
	}
}

func TestPyramidalBiLSTMParameters(t *testing.T) {
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 1)))
	p := models.NewPyramidalBiLSTM(ps, "listener", 40, 8, 2)
	for _, name := range []string{"listener.l0.fwd.wx", "listener.l1.bwd.wh"} {
		if _, ok := ps.Get(name); !ok {
			t.Errorf("no parameter %q in %v", name, ps.Names())
		}
	}
	if got, want := p.Layers[1].Fwd.Wx.Shape(), (tensor.Shape{32, 32}); !got.Eq(want) {
		t.Errorf("layer 1 Wx %v, want %v (input 4H, gates 4H)", got, want)
	}
}

func ExamplePyramidLength() {
	for _, n := range []int{0, 1, 2, 5, 400} {
		fmt.Print(models.PyramidLength(n), " ")
	}
	fmt.Println()
	// Output: 0 1 1 3 200
}
