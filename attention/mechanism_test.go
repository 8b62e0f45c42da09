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

// mechanismCase is one configured mechanism the shared tests run.
type mechanismCase struct {
	name  string
	build newMech
	// partial marks mechanisms whose weights need not sum to 1 over the
	// real positions (Local's Gaussian-weighted window).
	partial bool
	// stochastic marks mechanisms whose graph face samples (no
	// finite-difference check end to end).
	stochastic bool
}

var mechanismCases = []mechanismCase{
	{name: "Additive", build: func(ps *models.Params) (Mechanism, error) { return NewAdditive(ps, "att", tH, tD, tA) }},
	{name: "LocationAware", build: func(ps *models.Params) (Mechanism, error) {
		return NewLocationAware(ps, "att", tH, tD, tA, &LocationOptions{Filters: 2, Width: 3})
	}},
	{name: "LocationAware/cumulative+sharpen+window", build: func(ps *models.Params) (Mechanism, error) {
		return NewLocationAware(ps, "att", tH, tD, tA, &LocationOptions{Filters: 2, Width: 5, Cumulative: true, Sharpen: 1.7, Window: Window{Left: 1, Right: 2}})
	}},
	{name: "LocationAware/peak-window", build: func(ps *models.Params) (Mechanism, error) {
		return NewLocationAware(ps, "att", tH, tD, tA, &LocationOptions{Filters: 3, Width: 3, Window: Window{Left: 2, Right: 1, Center: Peak}})
	}},
	{name: "Dot", build: func(*models.Params) (Mechanism, error) { return NewDot(tD) }},
	{name: "ScaledDot", build: func(*models.Params) (Mechanism, error) { return NewScaledDot(tD) }},
	{name: "General", build: func(ps *models.Params) (Mechanism, error) { return NewGeneral(ps, "att", tH, tD) }},
	{name: "Concat", build: func(ps *models.Params) (Mechanism, error) { return NewConcat(ps, "att", tH, tD, tA) }},
	{name: "MultiHead/h=2", build: func(ps *models.Params) (Mechanism, error) { return NewMultiHead(ps, "att", tH, tD, 6, 2) }},
	{name: "Local", partial: true, build: func(ps *models.Params) (Mechanism, error) { return NewLocal(ps, "att", tH, tD, tA, 2) }},
	{name: "Hard/argmax", stochastic: true, build: func(ps *models.Params) (Mechanism, error) {
		return NewHard(ps, "att", tH, tD, tA, &HardOptions{Rand: rand.New(rand.NewPCG(1, 1))})
	}},
	{name: "Hard/expectation", stochastic: true, build: func(ps *models.Params) (Mechanism, error) {
		return NewHard(ps, "att", tH, tD, tA, &HardOptions{Inference: Expectation, Rand: rand.New(rand.NewPCG(1, 1))})
	}},
	{name: "Adaptive", build: func(ps *models.Params) (Mechanism, error) { return NewAdaptive(ps, "att", tH, 2, tD, tA) }},
	{name: "MultiHead/h=1", build: func(ps *models.Params) (Mechanism, error) { return NewMultiHead(ps, "att", tH, tD, 4, 1) }},
}

func newStore(dt tensor.Dtype, seed uint64) *models.Params {
	return models.NewParams(dt, rand.New(rand.NewPCG(seed, 99)))
}

// perturbZeros gives zero-initialized parameters (biases) small random
// values so that tests exercise them.
func perturbZeros(ps *models.Params, seed uint64) {
	r := rand.New(rand.NewPCG(seed, 3))
	for _, p := range ps.All() {
		switch d := p.Value.Data().(type) {
		case []float32:
			for i := range d {
				if d[i] == 0 {
					d[i] = float32(0.3 * (2*r.Float64() - 1))
				}
			}
		case []float64:
			for i := range d {
				if d[i] == 0 {
					d[i] = 0.3 * (2*r.Float64() - 1)
				}
			}
		}
	}
}

// TestParity runs every mechanism's eager and graph faces over the same
// steps in float32 and compares every state field.
func TestParity(t *testing.T) {
	for _, tc := range mechanismCases {
		if tc.stochastic {
			continue // hard_test.go pairs the samples of both faces
		}
		t.Run(tc.name, func(t *testing.T) {
			ps := newStore(tensor.Float32, 2)
			m, err := tc.build(ps)
			if err != nil {
				t.Fatal(err)
			}
			p := newProblem(1, tB, tT, tD, m.Dims().Query, tS, tLengths)
			perturbZeros(ps, 4)
			want := eagerRun(t, m, p)
			gr := buildGraph(t, m, ps, p)
			got := readSteps(gr.steps)
			vm := gorgonia.NewTapeMachine(gr.g)
			defer vm.Close()
			if err := vm.RunAll(); err != nil {
				t.Fatal(err)
			}
			var worst float64
			for s := range want {
				for _, f := range []struct {
					name  string
					graph gorgonia.Value
					eager []float32
				}{{"context", got[s].Context, want[s].Context}, {"weights", got[s].Weights, want[s].Weights},
					{"cumulative", got[s].Cumulative, want[s].Cumulative}, {"center", got[s].Center, want[s].Center},
					{"heads", got[s].Heads, want[s].Heads}, {"sentinel", got[s].Sentinel, want[s].Sentinel}} {
					if f.graph == nil {
						continue
					}
					d := maxAbs(floats(f.graph), f64s(f.eager))
					worst = math.Max(worst, d)
					if d > 1e-5 {
						t.Errorf("step %d %s: eager and graph differ by %.3g\neager %v\ngraph %v", s, f.name, d, f.eager, floats(f.graph))
					}
				}
			}
			t.Logf("worst |eager − graph| = %.2g", worst)
		})
	}
}

// TestWeights checks the weights every mechanism returns: exactly 0 on
// padding, all zeros (and a zero context) for an all-padding row, and a
// sum of 1 over the real positions.
func TestWeights(t *testing.T) {
	for _, tc := range mechanismCases {
		t.Run(tc.name, func(t *testing.T) {
			ps := newStore(tensor.Float32, 6)
			m, err := tc.build(ps)
			if err != nil {
				t.Fatal(err)
			}
			p := newProblem(5, tB, tT, tD, m.Dims().Query, tS, tLengths)
			for s, st := range eagerRun(t, m, p) {
				for b, n := range tLengths {
					w := st.Weights[b*p.T : (b+1)*p.T]
					var sum float64
					for i, x := range w {
						if math.IsNaN(float64(x)) || x < 0 {
							t.Errorf("step %d row %d: weight[%d] = %v", s, b, i, x)
						}
						if i >= n && x != 0 {
							t.Errorf("step %d row %d: padded position %d has weight %v, want exactly 0", s, b, i, x)
						}
						sum += float64(x)
					}
					switch {
					case n == 0 && sum != 0:
						t.Errorf("step %d row %d (all padding): weights sum to %v, want 0", s, b, sum)
					case n > 0 && !tc.partial && math.Abs(sum-1) > 1e-5:
						t.Errorf("step %d row %d: weights sum to %v, want 1", s, b, sum)
					case n > 0 && tc.partial && (sum <= 0 || sum > 1+1e-5):
						t.Errorf("step %d row %d: weights sum to %v, want in (0, 1]", s, b, sum)
					}
					if n == 0 {
						ctxDim := m.Dims().Context
						for i, x := range st.Context[b*ctxDim : (b+1)*ctxDim] {
							if x != 0 {
								t.Errorf("step %d row %d (all padding): context[%d] = %v, want 0", s, b, i, x)
							}
						}
					}
				}
			}
		})
	}
}

// TestGradients checks every mechanism's graph gradients with respect to
// every parameter, the memory and every step's query against central
// differences in float64, through S chained steps (so gradients through
// the previous weights are checked too). The loss is Σ_steps R⊙context +
// R'⊙weights with fixed random R, R'.
func TestGradients(t *testing.T) {
	for _, tc := range mechanismCases {
		if tc.stochastic {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			ps := newStore(tensor.Float64, 10)
			m, err := tc.build(ps)
			if err != nil {
				t.Fatal(err)
			}
			p := newProblem(9, tB, tT, tD, m.Dims().Query, tS, tLengths)
			perturbZeros(ps, 11)
			worst := checkGraphGradients(t, m, ps, p, nil)
			t.Logf("worst relative error %.2g", worst)
		})
	}
}

// checkGraphGradients runs the finite-difference check; beforeRun, when
// set, runs before every run of the graph (to reseed a sampler).
func checkGraphGradients(t *testing.T, m Mechanism, ps *models.Params, p problem, beforeRun func()) float64 {
	t.Helper()
	gr := buildGraph(t, m, ps, p)
	r := rand.New(rand.NewPCG(12, 13))
	var terms gorgonia.Nodes
	for s, st := range gr.steps {
		for i, n := range []*gorgonia.Node{st.Context, st.Weights} {
			proj := gorgonia.NodeFromAny(gr.g, dense(tensor.Float64, uniform(r, n.Shape().TotalSize(), 1), n.Shape()...), gorgonia.WithName(fmt.Sprintf("R%d_%d", s, i)))
			term, err := gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(n, proj)))
			if err != nil {
				t.Fatal(err)
			}
			terms = append(terms, term)
		}
	}
	loss, err := gorgonia.ReduceAdd(terms)
	if err != nil {
		t.Fatal(err)
	}
	wrt := append(gorgonia.Nodes{gr.memory}, gr.queries...)
	wrt = append(wrt, gr.bind.Used()...)
	if _, err := gorgonia.Grad(loss, wrt...); err != nil {
		t.Fatal(err)
	}
	var lossVal gorgonia.Value
	gorgonia.Read(loss, &lossVal)
	vm := gorgonia.NewTapeMachine(gr.g, gorgonia.BindDualValues(wrt...))
	defer vm.Close()
	run := func() float64 {
		if beforeRun != nil {
			beforeRun()
		}
		vm.Reset()
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		return floats(lossVal)[0]
	}
	run()
	analytic := make([][]float64, len(wrt))
	for i, n := range wrt {
		g, err := n.Grad()
		if err != nil {
			t.Fatalf("gradient of %s: %v", n.Name(), err)
		}
		analytic[i] = floats(g)
		if hasNaN(analytic[i]) {
			t.Errorf("gradient of %s has NaN or Inf: %v", n.Name(), analytic[i])
		}
	}
	const h = 1e-6
	var worst float64
	reported := 0
	for i, n := range wrt {
		x := n.Value().Data().([]float64)
		for j := range x {
			orig := x[j]
			x[j] = orig + h
			lp := run()
			x[j] = orig - h
			lm := run()
			x[j] = orig
			num := (lp - lm) / (2 * h)
			rel := math.Abs(analytic[i][j]-num) / math.Max(math.Abs(analytic[i][j])+math.Abs(num), 1e-6)
			worst = math.Max(worst, rel)
			if rel > 1e-4 && reported < 10 {
				reported++
				t.Errorf("∂L/∂%s[%d]: analytic %.9g, numeric %.9g (relative error %.2g)", n.Name(), j, analytic[i][j], num, rel)
			}
		}
	}
	return worst
}
