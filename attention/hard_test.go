package attention

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// TestHardParity pairs the samples of the eager face (Sample inference)
// and the training graph by giving both the same seed.
func TestHardParity(t *testing.T) {
	build := func() (*Hard, *models.Params) {
		ps := newStore(tensor.Float32, 21)
		m, err := NewHard(ps, "att", tH, tD, tA, &HardOptions{Inference: Sample, Rand: rand.New(rand.NewPCG(5, 5))})
		if err != nil {
			t.Fatal(err)
		}
		return m, ps
	}
	p := newProblem(22, tB, tT, tD, tH, tS, tLengths)
	me, _ := build()
	want := eagerRun(t, me, p)
	mg, ps := build()
	gr := buildGraph(t, mg, ps, p)
	got := readSteps(gr.steps)
	vm := gorgonia.NewTapeMachine(gr.g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	for s := range want {
		if d := maxAbs(floats(got[s].Weights), f64s(want[s].Weights)); d > 1e-5 {
			t.Errorf("step %d: weights differ by %.3g", s, d)
		}
		if d := maxAbs(floats(got[s].Context), f64s(want[s].Context)); d > 1e-5 {
			t.Errorf("step %d: contexts differ by %.3g", s, d)
		}
		oneHot := floats(got[s].Sample)
		for b, at := range want[s].Sample {
			for i, x := range oneHot[b*tT : (b+1)*tT] {
				if w := b2f(i == at); x != w {
					t.Errorf("step %d row %d: graph sample[%d] = %v, eager sampled %d", s, b, i, x, at)
				}
			}
		}
		if want[s].Sample[2] != -1 {
			t.Errorf("step %d: all-padding row sampled %d, want −1", s, want[s].Sample[2])
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestHardGradients checks the Hard training graph's gradients end to end
// with the sampler reseeded before every run, so that every run of the
// finite differences reads the same locations: the memory gets gradient
// through the context, the parameters through the weights.
func TestHardGradients(t *testing.T) {
	src := rand.NewPCG(90, 91)
	ps := newStore(tensor.Float64, 92)
	m, err := NewHard(ps, "att", tH, tD, tA, &HardOptions{Rand: rand.New(src)})
	if err != nil {
		t.Fatal(err)
	}
	perturbZeros(ps, 93)
	p := newProblem(94, tB, tT, tD, tH, tS, tLengths)
	worst := checkGraphGradients(t, m, ps, p, func() { src.Seed(90, 91) })
	t.Logf("worst relative error %.2g", worst)
}

// TestHardModes checks what each inference mode reads.
func TestHardModes(t *testing.T) {
	p := newProblem(23, tB, tT, tD, tH, 1, tLengths)
	for _, mode := range []HardMode{Argmax, Expectation, Sample} {
		t.Run(mode.String(), func(t *testing.T) {
			ps := newStore(tensor.Float32, 24)
			m, err := NewHard(ps, "att", tH, tD, tA, &HardOptions{Inference: mode, Rand: rand.New(rand.NewPCG(1, 2))})
			if err != nil {
				t.Fatal(err)
			}
			st := eagerRun(t, m, p)[0]
			mem := f32s(p.memory)
			for b, n := range tLengths {
				w := st.Weights[b*tT : (b+1)*tT]
				ctx := st.Context[b*tD : (b+1)*tD]
				s := st.Sample[b]
				switch {
				case n == 0 || mode == Expectation:
					if s != -1 {
						t.Errorf("row %d: Sample = %d, want −1", b, s)
					}
				case s < 0 || s >= n:
					t.Fatalf("row %d: Sample = %d outside the %d real positions", b, s, n)
				case mode == Argmax:
					for i, x := range w[:n] {
						if x > w[s] {
							t.Errorf("row %d: Argmax read %d (α=%v) but α[%d] = %v", b, s, w[s], i, x)
						}
					}
				}
				var want []float64
				switch {
				case n == 0:
					want = make([]float64, tD)
				case mode == Expectation:
					want = make([]float64, tD)
					for i := 0; i < n; i++ {
						for d := range want {
							want[d] += float64(w[i]) * float64(mem[(b*tT+i)*tD+d])
						}
					}
				default:
					want = f64s(mem[(b*tT+s)*tD : (b*tT+s+1)*tD])
				}
				if d := maxAbs(f64s(ctx), want); d > 1e-6 {
					t.Errorf("row %d: context %v, want %v", b, ctx, want)
				}
			}
		})
	}
}

// TestHardSamplingFrequencies draws many samples from fixed weights and
// checks the frequencies against α with Pearson's χ² statistic.
func TestHardSamplingFrequencies(t *testing.T) {
	const n = 20000
	ps := newStore(tensor.Float32, 25)
	m, err := NewHard(ps, "att", tH, tD, tA, &HardOptions{Inference: Sample, Rand: rand.New(rand.NewPCG(7, 7))})
	if err != nil {
		t.Fatal(err)
	}
	// Larger v makes the weights uneven, a sharper test.
	for i := range m.core.v.F32() {
		m.core.v.F32()[i] *= 4
	}
	lengths := []int{5}
	p := newProblem(26, 1, tT, tD, tH, 1, lengths)
	keys, err := m.Prepare(f32s(p.memory), p.mask, 1, tT)
	if err != nil {
		t.Fatal(err)
	}
	query := f32s(p.queries[0])
	var st State
	counts := make([]int, tT)
	for i := 0; i < n; i++ {
		if err := m.Step(&st, keys, query, nil); err != nil {
			t.Fatal(err)
		}
		counts[st.Sample[0]]++
	}
	var chi2 float64
	for i, c := range counts {
		e := n * float64(st.Weights[i])
		if i >= lengths[0] {
			if c != 0 {
				t.Errorf("padded position %d sampled %d times", i, c)
			}
			continue
		}
		chi2 += (float64(c) - e) * (float64(c) - e) / e
	}
	// 4 degrees of freedom: P(χ² > 18.47) = 0.001.
	if chi2 > 18.47 {
		t.Errorf("χ² = %.2f over 4 degrees of freedom (p < 0.001): counts %v, α %v", chi2, counts, st.Weights)
	}
	t.Logf("α %v, counts %v, χ² = %.2f", st.Weights, counts, chi2)
}

// TestReinforceGradients checks the surrogate's backward pass against
// finite differences, with a shared and a per-row baseline.
func TestReinforceGradients(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 1))
	const B, T = 3, 5
	alpha := make([]float64, B*T)
	sample := make([]float64, B*T)
	for b := 0; b < B; b++ {
		var sum float64
		for i := 0; i < T; i++ {
			alpha[b*T+i] = math.Exp(2 * r.NormFloat64())
			sum += alpha[b*T+i]
		}
		for i := 0; i < T; i++ {
			alpha[b*T+i] /= sum
		}
		sample[b*T+r.IntN(T)] = 1
	}
	for _, tc := range []struct {
		name     string
		baseline []float64
	}{{"shared baseline", []float64{0.3}}, {"per-row baseline", []float64{0.1, -0.2, 0.5}}} {
		t.Run(tc.name, func(t *testing.T) {
			in := []*tensor.Dense{
				dense(tensor.Float64, alpha, B, T), dense(tensor.Float64, sample, B, T),
				dense(tensor.Float64, []float64{1.5, -0.5, 0.7}, B), dense(tensor.Float64, tc.baseline, len(tc.baseline)),
			}
			worst := modeltest.CheckGradients(t, func() models.Kernel { return reinforceKernel{entropy: 0.1} }, in, nil)
			t.Logf("worst relative error %.2g", worst)
		})
	}
}

// TestReinforcePadding checks that a position of weight exactly 0 (padding)
// adds nothing to the surrogate and gets a zero gradient, never NaN.
func TestReinforcePadding(t *testing.T) {
	in := []*tensor.Dense{
		dense(tensor.Float64, []float64{0.7, 0.3, 0, 0, 0, 0}, 2, 3), dense(tensor.Float64, []float64{0, 1, 0, 0, 0, 0}, 2, 3),
		dense(tensor.Float64, []float64{2, 5}, 2), dense(tensor.Float64, []float64{0.5}, 1),
	}
	k := reinforceKernel{entropy: 0.1}
	out, err := modeltest.Eager(k, in)
	if err != nil {
		t.Fatal(err)
	}
	h := -(0.7*math.Log(0.7) + 0.3*math.Log(0.3))
	if want := -(2-0.5)*math.Log(0.3) - 0.1*h; math.Abs(floats(out)[0]-want) > 1e-12 {
		t.Errorf("surrogate %v, want %v", floats(out)[0], want)
	}
	dIn := []*tensor.Dense{tensor.New(tensor.WithShape(2, 3), tensor.Of(tensor.Float64)), nil, nil, nil}
	if err := k.Backward(dIn, dense(tensor.Float64, []float64{1}, 1), out, in); err != nil {
		t.Fatal(err)
	}
	g := floats(dIn[0])
	if hasNaN(g) {
		t.Fatalf("gradient has NaN: %v", g)
	}
	for i := 2; i < 6; i++ {
		if g[i] != 0 {
			t.Errorf("gradient at zero weight %d = %v, want 0", i, g[i])
		}
	}
}

// TestReinforceBandit trains Hard attention on a bandit: reading location
// 2 of 4 pays 1, the others 0. REINFORCE with the moving-average baseline
// must learn to attend to location 2.
func TestReinforceBandit(t *testing.T) {
	const B, T, target = 8, 4, 2
	ps := newStore(tensor.Float64, 28)
	m, err := NewHard(ps, "att", tH, tD, tA, &HardOptions{Rand: rand.New(rand.NewPCG(29, 29))})
	if err != nil {
		t.Fatal(err)
	}
	// Every row is the same bandit: one memory and one query.
	p := newProblem(30, 1, T, tD, tH, 1, []int{T})
	memory := make([]float64, 0, B*T*tD)
	query := make([]float64, 0, B*tH)
	for b := 0; b < B; b++ {
		memory = append(memory, p.memory...)
		query = append(query, p.queries[0]...)
	}
	payoff := make([]float64, B*T)
	for b := 0; b < B; b++ {
		payoff[b*T+target] = 1
	}
	g := gorgonia.NewGraph()
	bind := ps.Bind(g)
	mem := gorgonia.NodeFromAny(g, dense(tensor.Float64, memory, B, T, tD), gorgonia.WithName("memory"))
	q := gorgonia.NodeFromAny(g, dense(tensor.Float64, query, B, tH), gorgonia.WithName("query"))
	keys, err := m.PrepareNodes(bind, mem, nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := m.StepNode(bind, keys, q, StateNodes{})
	if err != nil {
		t.Fatal(err)
	}
	pay := gorgonia.NodeFromAny(g, dense(tensor.Float64, payoff, B, T), gorgonia.WithName("payoff"))
	reward := gorgonia.Must(gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(st.Sample, pay)), 1)) // (B)
	baseVal := tensor.New(tensor.WithShape(1), tensor.WithBacking([]float64{0}))
	base := gorgonia.NodeFromAny(g, baseVal, gorgonia.WithName("baseline"))
	loss, err := Reinforce(st.Weights, st.Sample, reward, base, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	params := bind.Used()
	if _, err := gorgonia.Grad(loss, params...); err != nil {
		t.Fatal(err)
	}
	var rewardVal, alphaVal gorgonia.Value
	gorgonia.Read(reward, &rewardVal)
	gorgonia.Read(st.Weights, &alphaVal)
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(params...))
	defer vm.Close()
	var bl Baseline
	const lr = 0.1
	var first float64
	for it := 0; it < 300; it++ {
		baseVal.Data().([]float64)[0] = bl.Value
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		if it == 0 {
			first = floats(alphaVal)[target]
		}
		if err := bind.CollectGrads(); err != nil {
			t.Fatal(err)
		}
		for _, p := range ps.All() {
			w, gr := p.Value.Data().([]float64), p.Grad.Data().([]float64)
			for i := range w {
				w[i] -= lr / B * gr[i]
			}
		}
		ps.ZeroGrads()
		var mean float64
		for _, r := range floats(rewardVal) {
			mean += r / B
		}
		bl.Update(mean)
		vm.Reset()
	}
	last := floats(alphaVal)[target]
	t.Logf("α[target] %.3f → %.3f, baseline %.3f", first, last, bl.Value)
	if last < 0.9 {
		t.Errorf("after training α[target] = %.3f, want > 0.9 (it started at %.3f)", last, first)
	}
	if bl.Value < 0.8 {
		t.Errorf("baseline %.3f, want it to track a reward near 1", bl.Value)
	}
}

func TestBaseline(t *testing.T) {
	var b Baseline
	b.Update(1)
	if math.Abs(b.Value-0.1) > 1e-15 {
		t.Errorf("after one update of 1 from 0: %v, want 0.1", b.Value)
	}
	b.Update(1)
	if math.Abs(b.Value-0.19) > 1e-15 {
		t.Errorf("after two updates: %v, want 0.19", b.Value)
	}
	c := Baseline{Value: 2, Decay: 0.5}
	c.Update(0)
	if c.Value != 1 {
		t.Errorf("Decay 0.5: %v, want 1", c.Value)
	}
}

func TestHardErrors(t *testing.T) {
	ps := newStore(tensor.Float32, 31)
	if _, err := NewHard(ps, "a", tH, tD, tA, &HardOptions{Inference: Sample}); !errors.Is(err, ErrConfig) {
		t.Errorf("Sample inference without Rand: %v, want ErrConfig", err)
	}
	m, err := NewHard(ps, "b", tH, tD, tA, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := gorgonia.NewGraph()
	bind := ps.Bind(g)
	mem := gorgonia.NewTensor(g, tensor.Float32, 3, gorgonia.WithShape(1, tT, tD), gorgonia.WithName("mem"))
	keys, err := m.PrepareNodes(bind, mem, nil)
	if err != nil {
		t.Fatal(err)
	}
	q := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(1, tH), gorgonia.WithName("q"))
	if _, err := m.StepNode(bind, keys, q, StateNodes{}); !errors.Is(err, ErrConfig) {
		t.Errorf("StepNode without Rand: %v, want ErrConfig", err)
	}
	if _, err := Reinforce(nil, nil, nil, nil, 0); !errors.Is(err, ErrShape) {
		t.Errorf("Reinforce(nil…): %v, want ErrShape", err)
	}
}
