package models_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// bruteForceCTC returns −ln p(target | logits (T, V)) by summing over all
// V^T frame paths that collapse to the target: the definition, with no
// dynamic programming. It returns +Inf when no path does.
func bruteForceCTC(logits []float64, T, V int, target []int, blank int) float64 {
	logp := make([]float64, T*V)
	for t := range T {
		var z float64
		for k := range V {
			z += math.Exp(logits[t*V+k])
		}
		for k := range V {
			logp[t*V+k] = logits[t*V+k] - math.Log(z)
		}
	}
	var total float64
	path := make([]int, T)
	for code := range int(math.Pow(float64(V), float64(T))) {
		c := code
		lp := 0.0
		for t := range T {
			path[t] = c % V
			c /= V
			lp += logp[t*V+path[t]]
		}
		var collapsed []int
		for t, k := range path {
			if k != blank && (t == 0 || path[t-1] != k) {
				collapsed = append(collapsed, k)
			}
		}
		if slices.Equal(collapsed, target) {
			total += math.Exp(lp)
		}
	}
	return -math.Log(total)
}

// Long sequences with peaked scores: the rescaled recursion must agree with
// the log-space one where plain probabilities would underflow.
func TestCTCLongSequencesMatchLogSpace(t *testing.T) {
	cases := []struct {
		name  string
		T, V  int
		S     int
		scale float64
	}{
		{"moderate", 200, 8, 40, 3},
		{"peaked", 400, 30, 80, 30},
		{"tight", 60, 5, 40, 10},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 23))
			target := make([]int, c.S)
			for j := range target {
				target[j] = 1 + r.IntN(c.V-1)
			}
			in := []*tensor.Dense{
				modeltest.Random(r, c.scale, 1, c.T, c.V),
				ints(tensor.Float64, []int{1, c.S}, target...),
				ints(tensor.Float64, []int{1}, c.T),
				ints(tensor.Float64, []int{1}, c.S),
			}
			out, err := modeltest.Eager(models.NewCTCKernel(0), in)
			if err != nil {
				t.Fatal(err)
			}
			got := out.Data().([]float64)[0]
			want := modeltest.CTCNLL(in[0].Data().([]float64), c.T, c.V, target, 0)
			if math.Abs(got-want) > 1e-9*math.Abs(want) {
				t.Errorf("loss %.12g, log-space reference %.12g", got, want)
			}
		})
	}
}

// ctcBatch is a padded CTC batch: each sequence's frames and labels.
type ctcBatch struct {
	name    string
	T, V, S int
	blank   int
	inLen   []int
	targets [][]int
}

func (c ctcBatch) inputs(r *rand.Rand) []*tensor.Dense {
	B := len(c.inLen)
	tg := make([]int, B*c.S)
	tl := make([]int, B)
	for b, target := range c.targets {
		for j := range c.S {
			tg[b*c.S+j] = -1 // padding: ignored
		}
		copy(tg[b*c.S:], target)
		tl[b] = len(target)
	}
	return []*tensor.Dense{
		modeltest.Random(r, 2, B, c.T, c.V),
		ints(tensor.Float64, []int{B, c.S}, tg...),
		ints(tensor.Float64, []int{B}, c.inLen...),
		ints(tensor.Float64, []int{B}, tl...),
	}
}

var ctcBatches = []ctcBatch{
	{"single label", 3, 3, 1, 0, []int{3}, [][]int{{1}}},
	{"two labels", 3, 3, 2, 0, []int{3}, [][]int{{1, 2}}},
	{"repeat needs a blank", 3, 3, 2, 0, []int{3}, [][]int{{2, 2}}},
	{"empty target", 3, 2, 1, 0, []int{3}, [][]int{{}}},
	{"blank last", 4, 3, 3, 2, []int{4}, [][]int{{0, 1, 0}}},
	{"padded batch", 4, 3, 3, 0, []int{4, 2, 3, 0, 1}, [][]int{{1, 2, 1}, {2}, {1, 1}, {}, {1}}},
	{"infeasible", 3, 3, 3, 0, []int{2, 3, 3}, [][]int{{1, 1}, {1, 2, 1}, {2, 2, 2}}},
}

func TestCTCMatchesBruteForce(t *testing.T) {
	for i, c := range ctcBatches {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 19))
			in := c.inputs(r)
			out, err := modeltest.Eager(models.NewCTCKernel(c.blank), in)
			if err != nil {
				t.Fatal(err)
			}
			logits := in[0].Data().([]float64)
			for b, target := range c.targets {
				want := bruteForceCTC(logits[b*c.T*c.V:], c.inLen[b], c.V, target, c.blank)
				if feasible := models.CTCFeasible(c.inLen[b], target); feasible != !math.IsInf(want, 1) {
					t.Errorf("sequence %d: CTCFeasible = %v, brute-force loss %v", b, feasible, want)
				}
				if math.IsInf(want, 1) {
					want = 0 // the documented zero-infinity policy
				}
				if got := out.Data().([]float64)[b]; math.Abs(got-want) > 1e-12*math.Max(1, want) {
					t.Errorf("sequence %d (T %d, target %v): loss %.15g, brute force %.15g", b, c.inLen[b], target, got, want)
				}
			}
		})
	}
}

func TestCTCGradients(t *testing.T) {
	batches := append(slices.Clone(ctcBatches),
		ctcBatch{"long", 20, 4, 6, 0, []int{20, 13}, [][]int{{1, 2, 2, 3, 1, 1}, {3, 3, 3}}})
	for i, c := range batches {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 20))
			checkGrad(t, func() models.Kernel { return models.NewCTCKernel(c.blank) }, c.inputs(r))
		})
	}
}

// The loss and its gradient stay finite for an infeasible sequence, so a
// summed loss over the batch is not poisoned.
func TestCTCInfeasibleIsZero(t *testing.T) {
	c := ctcBatches[len(ctcBatches)-1]
	in := c.inputs(rand.New(rand.NewPCG(1, 21)))
	g := gorgonia.NewGraph()
	nodes := make(gorgonia.Nodes, len(in))
	for i, x := range in {
		nodes[i] = gorgonia.NodeFromAny(g, x, gorgonia.WithName(fmt.Sprint("in", i)))
	}
	loss, err := models.CTCLoss(nodes[0], nodes[1], nodes[2], nodes[3], nil)
	if err != nil {
		t.Fatal(err)
	}
	total := gorgonia.Must(gorgonia.Sum(loss))
	if _, err := gorgonia.Grad(total, nodes[0]); err != nil {
		t.Fatal(err)
	}
	var lv gorgonia.Value
	gorgonia.Read(loss, &lv)
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(nodes[0]))
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	grad, err := nodes[0].Grad()
	if err != nil {
		t.Fatal(err)
	}
	losses, dl := lv.Data().([]float64), grad.Data().([]float64)
	n := c.T * c.V
	for b := range losses {
		feasible := models.CTCFeasible(c.inLen[b], c.targets[b])
		zero := !slices.ContainsFunc(dl[b*n:(b+1)*n], func(v float64) bool { return v != 0 })
		if math.IsInf(losses[b], 0) || math.IsNaN(losses[b]) || (losses[b] == 0) == feasible || zero == feasible {
			t.Errorf("sequence %d (feasible %v): loss %v, zero gradient %v", b, feasible, losses[b], zero)
		}
	}
}

func TestCTCRejectsBadInputs(t *testing.T) {
	base := ctcBatch{"", 3, 3, 2, 0, []int{3, 2}, [][]int{{1, 2}, {2}}}
	cases := []struct {
		name   string
		blank  int
		change func(in []*tensor.Dense)
	}{
		{"blank in target", 0, func(in []*tensor.Dense) { in[1].Data().([]float64)[1] = 0 }},
		{"label too large", 0, func(in []*tensor.Dense) { in[1].Data().([]float64)[0] = 3 }},
		{"input too long", 0, func(in []*tensor.Dense) { in[2].Data().([]float64)[1] = 4 }},
		{"target too long", 0, func(in []*tensor.Dense) { in[3].Data().([]float64)[1] = 3 }},
		{"fractional length", 0, func(in []*tensor.Dense) { in[2].Data().([]float64)[0] = 2.5 }},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := base.inputs(rand.New(rand.NewPCG(uint64(i), 22)))
			c.change(in)
			if _, err := modeltest.Eager(models.NewCTCKernel(c.blank), in); !isBadIndex(err) {
				t.Errorf("error %v, want ErrBadIndex", err)
			}
		})
	}
	g := gorgonia.NewGraph()
	logits := gorgonia.NewTensor(g, tensor.Float32, 3, gorgonia.WithShape(1, 2, 3), gorgonia.WithName("logits"))
	tg := gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(1, 1), gorgonia.WithName("targets"))
	il := gorgonia.NewVector(g, tensor.Float32, gorgonia.WithShape(1), gorgonia.WithName("il"))
	tl := gorgonia.NewVector(g, tensor.Float32, gorgonia.WithShape(1), gorgonia.WithName("tl"))
	if _, err := models.CTCLoss(logits, tg, il, tl, &models.CTCOptions{Blank: 3}); err == nil || !strings.Contains(err.Error(), "blank") {
		t.Errorf("blank 3 of 3 labels: error %v", err)
	}
}

func TestCTCGreedy(t *testing.T) {
	cases := []struct {
		name  string
		best  []int // argmax per frame
		blank int
		want  []int
	}{
		{"collapse and drop blanks", []int{0, 1, 1, 0, 1, 2, 2, 0}, 0, []int{1, 1, 2}},
		{"all blank", []int{0, 0}, 0, []int{}},
		{"no frames", nil, 0, []int{}},
		{"other blank", []int{2, 0, 0, 2, 1}, 2, []int{0, 1}},
	}
	const V = 3
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			scores := make([]float32, len(c.best)*V)
			for t, k := range c.best {
				scores[t*V+k] = 1
			}
			if got := models.CTCGreedy(nil, scores, len(c.best), V, c.blank); !slices.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

func ExampleCTCGreedy() {
	// Per-frame scores over {blank, a, b} for 5 frames: a a ∅ a b.
	scores := []float32{
		0.1, 0.8, 0.1,
		0.2, 0.7, 0.1,
		0.9, 0.05, 0.05,
		0.1, 0.6, 0.3,
		0.1, 0.2, 0.7,
	}
	fmt.Println(models.CTCGreedy(nil, scores, 5, 3, 0))
	// Output: [1 1 2]
}
