// Package modeltest checks fused kernels the way every hand-written backward
// pass in this module must be checked: against central finite differences in
// float64, through the gorgonia graph that training uses, and for parity
// between the graph forward and eager inference code.
package modeltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Random returns a float64 tensor of the given shape with entries drawn
// uniformly from [-scale, scale].
func Random(r *rand.Rand, scale float64, shape ...int) *tensor.Dense {
	n := 1
	for _, d := range shape {
		n *= d
	}
	data := make([]float64, n)
	for i := range data {
		data[i] = scale * (2*r.Float64() - 1)
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(data))
}

// GradOptions tunes CheckGradients; the zero value means the defaults.
type GradOptions struct {
	Step      float64 // central-difference step h; 0 means 1e-6
	Tolerance float64 // max relative error; 0 means 1e-4
	Seed      uint64  // seed of the random projection R of the output
}

// CheckGradients verifies a kernel's backward pass. It builds the float64
// graph L = Σ R ⊙ k(inputs) with a fixed random R, lets gorgonia
// differentiate it (so the Apply adapter is exercised as in training), and
// compares every element of every differentiable input's gradient with the
// central difference (L(x+h) − L(x−h)) / 2h computed by eager forward passes
// of fresh kernels from newKernel. The relative error is
// |a − n| / max(|a| + |n|, 1e-6). It returns the worst relative error and
// reports each element over the tolerance through t.
//
// inputs must be float64 tensors; they are not modified.
func CheckGradients(t testing.TB, newKernel func() models.Kernel, inputs []*tensor.Dense, opts *GradOptions) float64 {
	t.Helper()
	var o GradOptions
	if opts != nil {
		o = *opts
	}
	if o.Step == 0 {
		o.Step = 1e-6
	}
	if o.Tolerance == 0 {
		o.Tolerance = 1e-4
	}
	analytic, r, err := graphGradients(newKernel, inputs, o.Seed)
	if err != nil {
		t.Fatalf("graph gradients: %v", err)
	}
	loss := func(xs []*tensor.Dense) float64 {
		out, err := Eager(newKernel(), xs)
		if err != nil {
			t.Fatalf("eager forward: %v", err)
		}
		var s float64
		for i, v := range out.Data().([]float64) {
			s += v * r[i]
		}
		return s
	}
	xs := cloneAll(inputs)
	diff := newKernel().Differentiable(len(inputs))
	var worst float64
	reported := 0
	for i, x := range xs {
		if !diff[i] {
			continue
		}
		data := x.Data().([]float64)
		an := analytic[i]
		for j := range data {
			orig := data[j]
			data[j] = orig + o.Step
			lp := loss(xs)
			data[j] = orig - o.Step
			lm := loss(xs)
			data[j] = orig
			num := (lp - lm) / (2 * o.Step)
			rel := math.Abs(an[j]-num) / math.Max(math.Abs(an[j])+math.Abs(num), 1e-6)
			worst = math.Max(worst, rel)
			if rel > o.Tolerance && reported < 10 {
				reported++
				t.Errorf("%s: ∂L/∂in%d[%d]: analytic %.9g, numeric %.9g (relative error %.2g)", newKernel().Name(), i, j, an[j], num, rel)
			}
		}
	}
	return worst
}

// graphGradients runs L = Σ R⊙k(inputs) through a gorgonia tape machine and
// returns ∂L/∂input for each differentiable input (nil for the others) and R.
func graphGradients(newKernel func() models.Kernel, inputs []*tensor.Dense, seed uint64) ([][]float64, []float64, error) {
	k := newKernel()
	g := gorgonia.NewGraph()
	nodes := make(gorgonia.Nodes, len(inputs))
	for i, x := range inputs {
		if x.Dtype() != tensor.Float64 {
			return nil, nil, fmt.Errorf("input %d is %v; gradient checks run in float64", i, x.Dtype())
		}
		nodes[i] = gorgonia.NodeFromAny(g, x.Clone().(*tensor.Dense), gorgonia.WithName(fmt.Sprintf("in%d", i)))
	}
	out, err := models.Apply(k, nodes...)
	if err != nil {
		return nil, nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	rt := Random(rng, 1, out.Shape()...)
	rNode := gorgonia.NodeFromAny(g, rt, gorgonia.WithName("R"))
	prod, err := gorgonia.HadamardProd(out, rNode)
	if err != nil {
		return nil, nil, err
	}
	loss, err := gorgonia.Sum(prod)
	if err != nil {
		return nil, nil, err
	}
	diff := k.Differentiable(len(inputs))
	var wrt gorgonia.Nodes
	for i, n := range nodes {
		if diff[i] {
			wrt = append(wrt, n)
		}
	}
	if _, err := gorgonia.Grad(loss, wrt...); err != nil {
		return nil, nil, err
	}
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(wrt...))
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		return nil, nil, err
	}
	grads := make([][]float64, len(inputs))
	for i, n := range nodes {
		if !diff[i] {
			continue
		}
		gv, err := n.Grad()
		if err != nil {
			return nil, nil, fmt.Errorf("gradient of input %d: %w", i, err)
		}
		grads[i] = append([]float64(nil), gv.Data().([]float64)...)
	}
	return grads, rt.Data().([]float64), nil
}

// Eager runs k's forward pass directly, without a graph.
func Eager(k models.Kernel, inputs []*tensor.Dense) (*tensor.Dense, error) {
	shapes := make([]tensor.Shape, len(inputs))
	for i, x := range inputs {
		shapes[i] = x.Shape()
	}
	s, err := k.OutputShape(shapes)
	if err != nil {
		return nil, err
	}
	out := tensor.New(tensor.Of(inputs[0].Dtype()), tensor.WithShape(s...))
	return out, k.Forward(out, inputs)
}

// GraphForward runs k on inputs through a gorgonia tape machine and returns
// a copy of its output, for parity tests against eager inference code.
func GraphForward(k models.Kernel, inputs []*tensor.Dense) (*tensor.Dense, error) {
	g := gorgonia.NewGraph()
	nodes := make(gorgonia.Nodes, len(inputs))
	for i, x := range inputs {
		nodes[i] = gorgonia.NodeFromAny(g, x, gorgonia.WithName(fmt.Sprintf("in%d", i)))
	}
	out, err := models.Apply(k, nodes...)
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

// MaxAbsDiff returns max |a_i − b_i| over two equally long float slices.
func MaxAbsDiff[F models.Float](a, b []F) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(float64(a[i])-float64(b[i])))
	}
	return m
}

func cloneAll(xs []*tensor.Dense) []*tensor.Dense {
	out := make([]*tensor.Dense, len(xs))
	for i, x := range xs {
		out[i] = x.Clone().(*tensor.Dense)
	}
	return out
}
