package models_test

import (
	"fmt"
	"math"
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
		name         string
		layers, flat int
		T            int
		lengths      []int
	}{
		{"one layer", 1, 0, 4, []int{4, 2}},
		{"three layers odd", 3, 0, 7, []int{7, 5, 1}},
		{"two layers even", 2, 0, 8, []int{8, 3}},
		{"three layers one flat", 3, 1, 7, []int{7, 5, 1}},
		{"three layers two flat", 3, 2, 6, []int{6, 3}},
		{"four layers one flat, empty sequence", 4, 1, 9, []int{9, 0, 4}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 17))
			ps := models.NewParams(tensor.Float32, r)
			p := models.NewPyramidalBiLSTMFlat(ps, "listener", I, H, c.layers, c.flat)
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

// TestPyramidalBiLSTMFlatLayers checks a flat layer's sizes and names,
// OutputLength, Lower and AddFlat: a listener grown by AddFlat is the
// listener built with its flat layers, parameter for parameter.
func TestPyramidalBiLSTMFlatLayers(t *testing.T) {
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 1)))
	p := models.NewPyramidalBiLSTMFlat(ps, "listener", 40, 8, 4, 2)
	if got, want := p.Layers[2].Fwd.Wx.Shape(), (tensor.Shape{16, 32}); !got.Eq(want) {
		t.Errorf("flat layer 2 Wx %v, want %v (input 2H, gates 4H)", got, want)
	}
	for j, want := range []bool{false, false, true, true} {
		if p.IsFlat(j) != want {
			t.Errorf("IsFlat(%d) = %v, want %v", j, !want, want)
		}
	}
	if got := p.OutputLength(9); got != 5 {
		t.Errorf("OutputLength(9) = %d, want 5 (one halving)", got)
	}
	for _, c := range []struct{ n, flat int }{{1, 0}, {2, 0}, {3, 1}, {4, 2}} {
		if l := p.Lower(c.n); len(l.Layers) != c.n || l.Flat != c.flat {
			t.Errorf("Lower(%d): %d layers, %d flat; want %d, %d", c.n, len(l.Layers), l.Flat, c.n, c.flat)
		}
	}
	grown := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 1)))
	g := models.NewPyramidalBiLSTM(grown, "listener", 40, 8, 2)
	g.AddFlat(grown, "listener", 2)
	if !slices.Equal(grown.Names(), ps.Names()) || g.Flat != 2 || len(g.Layers) != 4 {
		t.Errorf("grown listener: %d layers, %d flat, parameters %v; want 4, 2, %v", len(g.Layers), g.Flat, grown.Names(), ps.Names())
	}
}

// TestPyramidalBiLSTMGradientsFD checks the listener graph's parameter
// gradients against central differences in float64, through the pyramid
// and the residual sum of flat layers (each kernel has its own check; this
// checks how they are wired), on a padded batch.
func TestPyramidalBiLSTMGradientsFD(t *testing.T) {
	const I, H, T = 3, 2, 5
	cases := []struct {
		name         string
		layers, flat int
	}{
		{"two layers", 2, 0},
		{"three layers one flat", 3, 1},
		{"three layers two flat", 3, 2},
	}
	lengths := []int{5, 2}
	B := len(lengths)
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 18))
			ps := models.NewParams(tensor.Float64, r)
			p := models.NewPyramidalBiLSTMFlat(ps, "listener", I, H, c.layers, c.flat)
			x := modeltest.Random(r, 1, B, T, I)
			To := p.OutputLength(T)
			w := modeltest.Random(r, 1, B, To, 2*H)
			bs := models.NewBuckets(ps, func(g *gorgonia.ExprGraph, bd *models.Binding, _ struct{}) (*gorgonia.Node, struct{}, error) {
				xn := gorgonia.NodeFromAny(g, x, gorgonia.WithName("x"))
				ln := gorgonia.NodeFromAny(g, ints(tensor.Float64, []int{B}, lengths...), gorgonia.WithName("lengths"))
				y, _, err := p.Apply(bd, xn, ln)
				if err != nil {
					return nil, struct{}{}, err
				}
				prod, err := gorgonia.HadamardProd(y, gorgonia.NodeFromAny(g, w, gorgonia.WithName("w")))
				if err != nil {
					return nil, struct{}{}, err
				}
				loss, err := gorgonia.Sum(prod) // Σ y⊙w
				return loss, struct{}{}, err
			})
			defer bs.Close()
			gr, err := bs.Get(struct{}{})
			if err != nil {
				t.Fatal(err)
			}
			// Gradients below 1e-5 are compared absolutely (to 1e-10):
			// OpenBLAS's summation order moves one of 6e-7 by 1.7e-11.
			modeltest.CheckParamGradients[float64](t, ps, gr.Run, ps.Names(), 1e-6, 3, 19, func(fd, g float64) bool {
				return math.Abs(fd-g)/math.Max(math.Abs(fd)+math.Abs(g), 1e-5) <= 1e-5
			})
		})
	}
}

func ExamplePyramidLength() {
	for _, n := range []int{0, 1, 2, 5, 400} {
		fmt.Print(models.PyramidLength(n), " ")
	}
	fmt.Println()
	// Output: 0 1 1 3 200
}

// TestPyramidalBiLSTMForwardTap: the tapped layer's output is what the
// listener of the layers up to it computes, the top output is Forward's,
// and a layer outside the listener is an error.
func TestPyramidalBiLSTMForwardTap(t *testing.T) {
	ps := models.NewParams(tensor.Float32, rand.New(rand.NewPCG(1, 2)))
	p := models.NewPyramidalBiLSTMFlat(ps, "l", 3, 4, 3, 1)
	const B, T = 2, 7
	lengths := []int{7, 5}
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float32, B*T*3)
	for i := range x {
		x[i] = float32(rng.NormFloat64())
	}
	var ws models.LSTMWorkspace
	top, topT, _, err := p.Forward(&ws, nil, x, B, T, lengths)
	if err != nil {
		t.Fatal(err)
	}
	top = slices.Clone(top[:B*topT*8])
	for j := range 3 {
		want, wantT, _, err := p.Lower(j+1).Forward(&models.LSTMWorkspace{}, nil, x, B, T, lengths)
		if err != nil {
			t.Fatal(err)
		}
		y, yT, _, tap, tapT, err := p.ForwardTap(&ws, nil, x, B, T, lengths, j, nil)
		if err != nil {
			t.Fatal(err)
		}
		if tapT != wantT || !slices.Equal(tap, want[:B*wantT*8]) {
			t.Errorf("layer %d: tapped %d steps, differ from the lower listener's %d", j, tapT, wantT)
		}
		if yT != topT || !slices.Equal(y[:B*yT*8], top) {
			t.Errorf("layer %d: tapping changed the output", j)
		}
	}
	for _, j := range []int{-1, 3} {
		if _, _, _, _, _, err := p.ForwardTap(&ws, nil, x, B, T, lengths, j, nil); err == nil {
			t.Errorf("tap layer %d: no error", j)
		}
	}
}
