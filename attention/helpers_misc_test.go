package attention

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestStepAllocs checks that every mechanism's eager step allocates
// nothing once its States have grown.
func TestStepAllocs(t *testing.T) {
	cases := append([]mechanismCase{{name: "Hard/sample", build: func(ps *models.Params) (Mechanism, error) {
		return NewHard(ps, "att", tH, tD, tA, &HardOptions{Inference: Sample, Rand: rand.New(rand.NewPCG(1, 1))})
	}}}, mechanismCases...)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ps := newStore(tensor.Float32, 80)
			m, err := tc.build(ps)
			if err != nil {
				t.Fatal(err)
			}
			p := newProblem(81, tB, tT, tD, m.Dims().Query, 1, tLengths)
			keys, err := m.Prepare(f32s(p.memory), p.mask, tB, tT)
			if err != nil {
				t.Fatal(err)
			}
			q := f32s(p.queries[0])
			var a, b State
			step := func() {
				if err := m.Step(&a, keys, q, &b); err != nil {
					t.Fatal(err)
				}
				a, b = b, a
			}
			step()
			step()
			if n := testing.AllocsPerRun(50, step); n != 0 {
				t.Errorf("%v allocations per step, want 0", n)
			}
		})
	}
}

// TestDoublyStochastic checks the penalty's value through StackWeights in
// a graph, against Xu et al.'s eq. 14 written out.
func TestDoublyStochastic(t *testing.T) {
	const B, S, L = 2, 3, 4
	r := rand.New(rand.NewPCG(82, 1))
	steps := [][]float64{uniform(r, B*L, 1), uniform(r, B*L, 1), uniform(r, B*L, 1)}
	stepMask := []float64{1, 1, 1, 1, 1, 0} // row 1 has 2 real steps
	locMask := []float64{1, 1, 1, 1, 1, 1, 1, 0}
	for _, withLocations := range []bool{false, true} {
		g := gorgonia.NewGraph()
		var nodes []*gorgonia.Node
		for s, w := range steps {
			nodes = append(nodes, gorgonia.NodeFromAny(g, dense(tensor.Float64, w, B, L), gorgonia.WithName(string(rune('a'+s)))))
		}
		stacked, err := StackWeights(nodes)
		if err != nil {
			t.Fatal(err)
		}
		var locs *gorgonia.Node
		if withLocations {
			locs = gorgonia.NodeFromAny(g, dense(tensor.Float64, locMask, B, L), gorgonia.WithName("locs"))
		}
		pen, err := DoublyStochastic(stacked, gorgonia.NodeFromAny(g, dense(tensor.Float64, stepMask, B, S), gorgonia.WithName("steps")), locs, 0.5)
		if err != nil {
			t.Fatal(err)
		}
		var v gorgonia.Value
		gorgonia.Read(pen, &v)
		vm := gorgonia.NewTapeMachine(g)
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		vm.Close()
		var want float64
		for b := 0; b < B; b++ {
			for i := 0; i < L; i++ {
				if withLocations && locMask[b*L+i] == 0 {
					continue
				}
				sum := 0.0
				for s := 0; s < S; s++ {
					sum += stepMask[b*S+s] * steps[s][b*L+i]
				}
				want += 0.5 * (1 - sum) * (1 - sum)
			}
		}
		if got := floats(v)[0]; math.Abs(got-want) > 1e-12 {
			t.Errorf("locations %v: penalty %v, want %v", withLocations, got, want)
		}
	}
	if _, err := StackWeights(nil); err == nil {
		t.Error("StackWeights(nil): no error")
	}
}

// TestGateParity compares the gate's eager and graph faces.
func TestGateParity(t *testing.T) {
	ps := newStore(tensor.Float32, 83)
	gate, err := NewGate(ps, "gate", tH)
	if err != nil {
		t.Fatal(err)
	}
	perturbZeros(ps, 84)
	r := rand.New(rand.NewPCG(85, 1))
	ctx, h := uniform(r, tB*tD, 1), uniform(r, tB*tH, 1)
	dst, beta := make([]float32, tB*tD), make([]float32, tB)
	if err := gate.Apply(dst, beta, f32s(ctx), f32s(h)); err != nil {
		t.Fatal(err)
	}
	w, b := param(t, ps, "gate.w"), param(t, ps, "gate.b")
	for r := 0; r < tB; r++ {
		s := b[0]
		for i := 0; i < tH; i++ {
			s += h[r*tH+i] * w[i]
		}
		if want := 1 / (1 + math.Exp(-s)); math.Abs(float64(beta[r])-want) > 1e-6 {
			t.Errorf("row %d: β = %v, want %v", r, beta[r], want)
		}
	}
	g := gorgonia.NewGraph()
	bind := ps.Bind(g)
	out, err := gate.Node(bind, gorgonia.NodeFromAny(g, dense(tensor.Float32, ctx, tB, tD), gorgonia.WithName("ctx")),
		gorgonia.NodeFromAny(g, dense(tensor.Float32, h, tB, tH), gorgonia.WithName("h")))
	if err != nil {
		t.Fatal(err)
	}
	var v gorgonia.Value
	gorgonia.Read(out, &v)
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	if d := maxAbs(floats(v), f64s(dst)); d > 1e-6 {
		t.Errorf("eager and graph gates differ by %g", d)
	}
	if err := gate.Apply(dst, nil, f32s(ctx), f32s(h[1:])); err == nil {
		t.Error("Apply with a short state: no error")
	}
}

// TestGather reorders a location-aware state as beam search does and
// checks that the next step follows the gathered rows.
func TestGather(t *testing.T) {
	ps := newStore(tensor.Float32, 86)
	m, err := NewLocationAware(ps, "att", tH, tD, tA, &LocationOptions{Filters: 2, Width: 3, Cumulative: true})
	if err != nil {
		t.Fatal(err)
	}
	const beams = 3
	one := newProblem(87, 1, tT, tD, tH, 2, []int{5})
	p := newProblem(88, beams, tT, tD, tH, 2, []int{5, 5, 5})
	p.memory = append(append(append([]float64(nil), one.memory...), one.memory...), one.memory...) // one utterance, three beams
	keys, err := m.Prepare(f32s(p.memory), p.mask, beams, tT)
	if err != nil {
		t.Fatal(err)
	}
	var s0, s1, g State
	if err := m.Step(&s0, keys, f32s(p.queries[0]), nil); err != nil {
		t.Fatal(err)
	}
	rows := []int{2, 0, 2}
	if err := g.Gather(&s0, rows); err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		for j := 0; j < tT; j++ {
			if g.Weights[i*tT+j] != s0.Weights[r*tT+j] || g.Cumulative[i*tT+j] != s0.Cumulative[r*tT+j] {
				t.Fatalf("row %d: gathered weights differ from source row %d", i, r)
			}
		}
	}
	// Row i of the next step from the gathered state equals the next step
	// of source row rows[i] given the same query.
	q := f32s(p.queries[1])
	if err := m.Step(&s1, keys, q, &g); err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		var ref, src State
		if err := src.Gather(&s0, []int{r}); err != nil {
			t.Fatal(err)
		}
		k1, err := m.Prepare(f32s(one.memory), p.mask[:tT], 1, tT)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Step(&ref, k1, q[i*tH:(i+1)*tH], &src); err != nil {
			t.Fatal(err)
		}
		if d := maxAbs(f64s(s1.Weights[i*tT:(i+1)*tT]), f64s(ref.Weights)); d > 1e-6 {
			t.Errorf("row %d: next weights differ by %g from source row %d's", i, d, r)
		}
	}
	if err := g.Gather(&s0, []int{3}); err == nil {
		t.Error("Gather of row 3 of 3: no error")
	}
	if err := g.Gather(&g, rows); err == nil {
		t.Error("Gather into itself: no error")
	}
}
