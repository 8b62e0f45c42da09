package models_test

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestLinearGradients(t *testing.T) {
	cases := []struct {
		name  string
		shape []int // x
		out   int
		bias  bool
	}{
		{"matrix", []int{3, 4}, 5, true},
		{"sequence", []int{2, 3, 4}, 2, true},
		{"no bias", []int{3, 4}, 3, false},
		{"vector", []int{4}, 3, true},
		{"one input", []int{3, 1}, 4, true},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 1))
			in := c.shape[len(c.shape)-1]
			inputs := []*tensor.Dense{modeltest.Random(r, 1, c.shape...), modeltest.Random(r, 0.5, in, c.out)}
			if c.bias {
				inputs = append(inputs, modeltest.Random(r, 0.5, c.out))
			}
			checkGrad(t, models.NewLinearKernel, inputs)
		})
	}
}

func TestLinearEagerMatchesGraph(t *testing.T) {
	cases := []struct {
		name   string
		shape  []int
		out    int
		noBias bool
	}{
		{"matrix", []int{4, 6}, 5, false},
		{"sequence", []int{2, 3, 6}, 7, false},
		{"no bias", []int{4, 6}, 5, true},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 2))
			ps := models.NewParams(tensor.Float32, r)
			in := c.shape[len(c.shape)-1]
			l := models.NewLinear(ps, "proj", in, c.out, &models.LinearOptions{NoBias: c.noBias})
			randomizeParams(ps, r) // non-zero bias
			x := toF32(modeltest.Random(r, 1, c.shape...))
			got := runGraph(t, ps, []*tensor.Dense{x}, func(b *models.Binding, in gorgonia.Nodes) (*gorgonia.Node, error) {
				return l.Apply(b, in[0])
			})
			rows := x.Shape().TotalSize() / in
			want := l.Forward(nil, x.Data().([]float32), rows)
			wantShape := append(tensor.Shape{}, c.shape...)
			wantShape[len(wantShape)-1] = c.out
			if !got.Shape().Eq(wantShape) {
				t.Fatalf("graph output shape %v, want %v", got.Shape(), wantShape)
			}
			if d := modeltest.MaxAbsDiff(got.Data().([]float32), want); d > 1e-5 {
				t.Errorf("eager and graph differ by %g", d)
			}
		})
	}
}

func TestLinearRejectsBadShapes(t *testing.T) {
	g := gorgonia.NewGraph()
	x := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(2, 3), gorgonia.WithName("x"))
	w := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(4, 5), gorgonia.WithName("w"))
	if _, err := models.Apply(models.NewLinearKernel(), x, w); err == nil {
		t.Error("x (2, 3) · W (4, 5) built without error")
	}
}

// checkGrad runs the finite-difference check of every differentiable
// input and logs the worst relative error (CheckGradients reports each
// element over the 1e-4 tolerance).
func checkGrad(t *testing.T, newKernel func() models.Kernel, inputs []*tensor.Dense) {
	t.Helper()
	worst := modeltest.CheckGradients(t, newKernel, inputs, nil)
	t.Logf("%s: worst relative error %.2g", newKernel().Name(), worst)
}

// runGraph builds a graph binding ps, with one constant node per input,
// adds build's output, runs it once and returns a copy of the output.
func runGraph(t *testing.T, ps *models.Params, inputs []*tensor.Dense, build func(b *models.Binding, in gorgonia.Nodes) (*gorgonia.Node, error)) *tensor.Dense {
	t.Helper()
	out, err := tryGraph(ps, inputs, build)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func tryGraph(ps *models.Params, inputs []*tensor.Dense, build func(b *models.Binding, in gorgonia.Nodes) (*gorgonia.Node, error)) (*tensor.Dense, error) {
	g := gorgonia.NewGraph()
	b := ps.Bind(g)
	nodes := make(gorgonia.Nodes, len(inputs))
	for i, x := range inputs {
		nodes[i] = gorgonia.NodeFromAny(g, x, gorgonia.WithName("input"+string(rune('0'+i))))
	}
	out, err := build(b, nodes)
	if err != nil {
		return nil, err
	}
	var v gorgonia.Value
	gorgonia.Read(out, &v)
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		return nil, err
	}
	return v.(*tensor.Dense).Clone().(*tensor.Dense), nil
}

// toF32 converts a float64 tensor to float32.
func toF32(x *tensor.Dense) *tensor.Dense {
	src := x.Data().([]float64)
	dst := make([]float32, len(src))
	for i, v := range src {
		dst[i] = float32(v)
	}
	return tensor.New(tensor.WithShape(x.Shape().Clone()...), tensor.WithBacking(dst))
}

// ints returns a float tensor holding whole numbers.
func ints(dt tensor.Dtype, shape []int, vals ...int) *tensor.Dense {
	if dt == tensor.Float32 {
		d := make([]float32, len(vals))
		for i, v := range vals {
			d[i] = float32(v)
		}
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))
	}
	d := make([]float64, len(vals))
	for i, v := range vals {
		d[i] = float64(v)
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(d))
}

// randomizeParams overwrites every parameter with U(−0.5, 0.5), so that
// biases and padding rows are exercised too.
func randomizeParams(ps *models.Params, r *rand.Rand) {
	for _, p := range ps.All() {
		switch d := p.Value.Data().(type) {
		case []float32:
			for i := range d {
				d[i] = float32(r.Float64() - 0.5)
			}
		case []float64:
			for i := range d {
				d[i] = r.Float64() - 0.5
			}
		}
	}
}

func isBadIndex(err error) bool { return errors.Is(err, models.ErrBadIndex) }
