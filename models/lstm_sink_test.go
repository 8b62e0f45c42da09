package models_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestLSTMStepsGradientsFD unrolls an LSTM over S steps with ApplyStep, so
// that its weight gradients come from the steps' shared sink, and checks
// them against central differences in float64, on a repeated run of the
// graph (the sink's buffers are reused between runs).
func TestLSTMStepsGradientsFD(t *testing.T) {
	const B, I, H, S = 3, 4, 5, 3
	r := rand.New(rand.NewPCG(4, 4))
	ps := models.NewParams(tensor.Float64, r)
	l := models.NewLSTM(ps, "lstm", I, H)
	xs := modeltest.Random(r, 1, S, B, I).Data().([]float64)
	rs := modeltest.Random(r, 1, S, B, 2*H)
	bs := models.NewBuckets(ps, func(g *gorgonia.ExprGraph, bd *models.Binding, _ struct{}) (*gorgonia.Node, struct{}, error) {
		state := gorgonia.NewMatrix(g, tensor.Float64, gorgonia.WithShape(B, 2*H), gorgonia.WithName("s0"), gorgonia.WithInit(gorgonia.Zeroes()))
		var terms gorgonia.Nodes
		for s := range S {
			x := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(B, I), tensor.WithBacking(xs[s*B*I:(s+1)*B*I])))
			var err error
			if state, err = l.ApplyStep(bd, x, state); err != nil {
				return nil, struct{}{}, err
			}
			w := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(B, 2*H), tensor.WithBacking(rs.Data().([]float64)[s*B*2*H:(s+1)*B*2*H])))
			term, err := gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(state, w)))
			if err != nil {
				return nil, struct{}{}, err
			}
			terms = append(terms, term)
		}
		loss, err := gorgonia.ReduceAdd(terms)
		return loss, struct{}{}, err
	})
	defer bs.Close()
	gr, err := bs.Get(struct{}{})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second run must not see the first one's gradients
		ps.ZeroGrads()
		if _, err := gr.Run(); err != nil {
			t.Fatal(err)
		}
	}
	params := []*models.Param{l.Wx, l.Wh, l.B}
	grads := make([][]float64, len(params)) // copied now: every run accumulates into Grad
	for i, p := range params {
		grads[i] = append([]float64(nil), p.Grad.Data().([]float64)...)
	}
	const h = 1e-6
	for j, p := range params {
		grad := grads[j]
		v := p.Value.Data().([]float64)
		for i := range v {
			old := v[i]
			v[i] = old + h
			lp, err := gr.Run()
			if err != nil {
				t.Fatal(err)
			}
			v[i] = old - h
			lm, err := gr.Run()
			if err != nil {
				t.Fatal(err)
			}
			v[i] = old
			fd := (lp - lm) / (2 * h)
			if rel := math.Abs(fd-grad[i]) / math.Max(math.Abs(fd)+math.Abs(grad[i]), 1e-6); rel > 1e-5 {
				t.Errorf("%s[%d]: graph %.9g, finite difference %.9g (rel err %.2g)", p.Name, i, grad[i], fd, rel)
			}
		}
	}
}

// TestLSTMStepsSinkMatchesPerStep checks, in float32 at decoder sizes,
// that the weight gradients formed by the steps' sink equal the sum of
// per-step gradients of the plain step kernel.
func TestLSTMStepsSinkMatchesPerStep(t *testing.T) {
	const B, I, H, S = 8, 96, 64, 12
	r := rand.New(rand.NewPCG(5, 5))
	ps := models.NewParams(tensor.Float32, r)
	l := models.NewLSTM(ps, "lstm", I, H)
	xs := toF32(modeltest.Random(r, 1, S, B, I)).Data().([]float32)
	rs := toF32(modeltest.Random(r, 1, S, B, 2*H)).Data().([]float32)
	grads := func(sink bool) [][]float32 {
		bs := models.NewBuckets(ps, func(g *gorgonia.ExprGraph, bd *models.Binding, _ struct{}) (*gorgonia.Node, struct{}, error) {
			state := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(B, 2*H), gorgonia.WithName("s0"), gorgonia.WithInit(gorgonia.Zeroes()))
			var terms gorgonia.Nodes
			for s := range S {
				x := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(B, I), tensor.WithBacking(xs[s*B*I:(s+1)*B*I])))
				var err error
				if sink {
					state, err = l.ApplyStep(bd, x, state)
				} else {
					state, err = models.Apply(models.NewLSTMStepKernel(), x, state, bd.Node("lstm.wx"), bd.Node("lstm.wh"), bd.Node("lstm.b"))
				}
				if err != nil {
					return nil, struct{}{}, err
				}
				w := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(B, 2*H), tensor.WithBacking(rs[s*B*2*H:(s+1)*B*2*H])))
				term, err := gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(state, w)))
				if err != nil {
					return nil, struct{}{}, err
				}
				terms = append(terms, term)
			}
			loss, err := gorgonia.ReduceAdd(terms)
			return loss, struct{}{}, err
		})
		defer bs.Close()
		gr, err := bs.Get(struct{}{})
		if err != nil {
			t.Fatal(err)
		}
		ps.ZeroGrads()
		if _, err := gr.Run(); err != nil {
			t.Fatal(err)
		}
		var out [][]float32
		for _, p := range []*models.Param{l.Wx, l.Wh, l.B} {
			out = append(out, append([]float32(nil), p.Grad.Data().([]float32)...))
		}
		return out
	}
	got, want := grads(true), grads(false)
	for i, name := range []string{"wx", "wh", "b"} {
		var num, den float64
		for j := range got[i] {
			d := float64(got[i][j] - want[i][j])
			num += d * d
			den += float64(want[i][j]) * float64(want[i][j])
		}
		if rel := math.Sqrt(num / den); rel > 1e-6 {
			t.Errorf("%s: sink and per-step gradients differ by %.2g (relative L2)", name, rel)
		} else {
			t.Logf("%s: relative L2 difference %.2g", name, rel)
		}
	}
}
