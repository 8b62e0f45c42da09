package attention

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Shapes of the tiny problems the tests run: batch, memory length, memory
// width, query width, attention width, decoder steps. Row 1 is padded and
// row 2 is all padding.
const (
	tB, tT, tD, tH, tA, tS = 3, 6, 4, 5, 3, 3
)

var tLengths = []int{6, 4, 0}

// newMech builds a mechanism in a fresh store of the given dtype.
type newMech func(ps *models.Params) (Mechanism, error)

// problem is a seeded attention problem: memory, mask and one query per step.
type problem struct {
	B, T, D, H, S int
	memory        []float64 // (B, T, D)
	mask          []float32 // (B, T)
	queries       [][]float64
}

func newProblem(seed uint64, B, T, D, H, S int, lengths []int) problem {
	r := rand.New(rand.NewPCG(seed, 7))
	p := problem{B: B, T: T, D: D, H: H, S: S}
	p.memory = uniform(r, B*T*D, 1)
	mask, err := MaskFromLengths(lengths, T)
	if err != nil {
		panic(err)
	}
	p.mask = mask
	for s := 0; s < S; s++ {
		p.queries = append(p.queries, uniform(r, B*H, 1))
	}
	return p
}

func uniform(r *rand.Rand, n int, scale float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = scale * (2*r.Float64() - 1)
	}
	return x
}

func f32s(x []float64) []float32 {
	y := make([]float32, len(x))
	for i, v := range x {
		y[i] = float32(v)
	}
	return y
}

func f64s(x []float32) []float64 {
	y := make([]float64, len(x))
	for i, v := range x {
		y[i] = float64(v)
	}
	return y
}

// dense makes a tensor of the dtype from float64 values.
func dense(dt tensor.Dtype, x []float64, shape ...int) *tensor.Dense {
	if dt == tensor.Float32 {
		return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(f32s(x)))
	}
	return tensor.New(tensor.WithShape(shape...), tensor.WithBacking(append([]float64(nil), x...)))
}

// floats returns a value's data as float64.
func floats(v gorgonia.Value) []float64 {
	switch d := v.Data().(type) {
	case []float32:
		return f64s(d)
	case []float64:
		return append([]float64(nil), d...)
	case float64:
		return []float64{d}
	case float32:
		return []float64{float64(d)}
	}
	panic(fmt.Sprintf("floats: %T", v.Data()))
}

// graphRun is a mechanism unrolled over a problem's steps in one graph.
type graphRun struct {
	g       *gorgonia.ExprGraph
	bind    *models.Binding
	memory  *gorgonia.Node
	queries []*gorgonia.Node
	steps   []StateNodes
}

func buildGraph(t testing.TB, m Mechanism, ps *models.Params, p problem) *graphRun {
	t.Helper()
	dt := ps.Dtype()
	gr := &graphRun{g: gorgonia.NewGraph()}
	gr.bind = ps.Bind(gr.g)
	gr.memory = gorgonia.NodeFromAny(gr.g, dense(dt, p.memory, p.B, p.T, p.D), gorgonia.WithName("memory"))
	mask := gorgonia.NodeFromAny(gr.g, dense(dt, f64s(p.mask), p.B, p.T), gorgonia.WithName("mask"))
	keys, err := m.PrepareNodes(gr.bind, gr.memory, mask)
	if err != nil {
		t.Fatalf("PrepareNodes: %v", err)
	}
	var prev StateNodes
	for s := 0; s < p.S; s++ {
		q := gorgonia.NodeFromAny(gr.g, dense(dt, p.queries[s], p.B, p.H), gorgonia.WithName(fmt.Sprintf("query%d", s)))
		gr.queries = append(gr.queries, q)
		next, err := m.StepNode(gr.bind, keys, q, prev)
		if err != nil {
			t.Fatalf("StepNode %d: %v", s, err)
		}
		gr.steps = append(gr.steps, next)
		prev = next
	}
	return gr
}

// eagerRun runs a mechanism's eager face over a problem's steps and returns
// a copy of every step's state.
func eagerRun(t testing.TB, m Mechanism, p problem) []State {
	t.Helper()
	keys, err := m.Prepare(f32s(p.memory), p.mask, p.B, p.T)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	var states []State
	var bufs [2]State
	prev := &bufs[1]
	for s := 0; s < p.S; s++ {
		dst := &bufs[s%2]
		if err := m.Step(dst, keys, f32s(p.queries[s]), prev); err != nil {
			t.Fatalf("Step %d: %v", s, err)
		}
		states = append(states, cloneState(dst))
		prev = dst
	}
	return states
}

func cloneState(s *State) State {
	c := *s
	c.Context = append([]float32(nil), s.Context...)
	c.Weights = append([]float32(nil), s.Weights...)
	c.Cumulative = append([]float32(nil), s.Cumulative...)
	c.Center = append([]float32(nil), s.Center...)
	c.Heads = append([]float32(nil), s.Heads...)
	c.Sample = append([]int(nil), s.Sample...)
	c.Sentinel = append([]float32(nil), s.Sentinel...)
	return c
}

// readAll registers reads of every produced node of the steps; call before
// the machine runs.
type stepValues struct {
	Context, Weights, Cumulative, Center, Heads, Sample, Sentinel gorgonia.Value
}

func readSteps(steps []StateNodes) []*stepValues {
	out := make([]*stepValues, len(steps))
	for i, s := range steps {
		v := &stepValues{}
		for _, r := range []struct {
			n   *gorgonia.Node
			dst *gorgonia.Value
		}{{s.Context, &v.Context}, {s.Weights, &v.Weights}, {s.Cumulative, &v.Cumulative}, {s.Center, &v.Center}, {s.Heads, &v.Heads}, {s.Sample, &v.Sample}, {s.Sentinel, &v.Sentinel}} {
			if r.n != nil {
				gorgonia.Read(r.n, r.dst)
			}
		}
		out[i] = v
	}
	return out
}

func maxAbs(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var m float64
	for i := range a {
		m = math.Max(m, math.Abs(a[i]-b[i]))
	}
	return m
}

func hasNaN(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return true
		}
	}
	return false
}
