package models_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestLSTMStepGradients(t *testing.T) {
	cases := []struct {
		name     string
		B, I, H  int
		stateMag float64
	}{
		{"small", 3, 4, 3, 1},
		{"single row", 1, 2, 2, 0.5},
		{"saturating", 2, 3, 2, 3},
		{"one unit", 3, 1, 1, 1}, // one-row products (GEMV paths)
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 6))
			inputs := []*tensor.Dense{
				modeltest.Random(r, 1, c.B, c.I),
				modeltest.Random(r, c.stateMag, c.B, 2*c.H),
				modeltest.Random(r, 0.5, c.I, 4*c.H),
				modeltest.Random(r, 0.5, c.H, 4*c.H),
				modeltest.Random(r, 0.5, 4*c.H),
			}
			checkGrad(t, models.NewLSTMStepKernel, inputs)
		})
	}
}

// seqCases are the padded batches every sequence kernel is checked on.
var seqCases = []struct {
	name    string
	T       int
	lengths []int
}{
	{"equal lengths", 3, []int{3, 3}},
	{"padded", 4, []int{4, 2, 0}},
	{"unsorted", 4, []int{1, 4, 3}},
	{"single frame", 1, []int{1, 1}},
	{"all empty", 2, []int{0, 0}},
}

// seqInputs returns float64 inputs x (B, T, I), lengths, and dirs sets of
// LSTM weights.
func seqInputs(r *rand.Rand, T, I, H, dirs int, lengths []int) []*tensor.Dense {
	B := len(lengths)
	in := []*tensor.Dense{modeltest.Random(r, 1, B, T, I), ints(tensor.Float64, []int{B}, lengths...)}
	for range dirs {
		in = append(in, modeltest.Random(r, 0.5, I, 4*H), modeltest.Random(r, 0.5, H, 4*H), modeltest.Random(r, 0.5, 4*H))
	}
	return in
}

func TestLSTMSequenceGradients(t *testing.T) {
	for i, c := range seqCases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 7))
			checkGrad(t, models.NewLSTMSeqKernel, seqInputs(r, c.T, 3, 2, 1, c.lengths))
		})
	}
}

func TestLSTMStepEagerMatchesGraph(t *testing.T) {
	const B, I, H = 3, 5, 4
	r := rand.New(rand.NewPCG(1, 8))
	ps := models.NewParams(tensor.Float32, r)
	l := models.NewLSTM(ps, "dec.lstm", I, H)
	x, state := toF32(modeltest.Random(r, 1, B, I)), toF32(modeltest.Random(r, 1, B, 2*H))
	got := runGraph(t, ps, []*tensor.Dense{x, state}, func(b *models.Binding, in gorgonia.Nodes) (*gorgonia.Node, error) {
		return l.ApplyStep(b, in[0], in[1])
	})
	var ws models.LSTMWorkspace
	want := make([]float32, B*2*H)
	l.Step(&ws, want, x.Data().([]float32), state.Data().([]float32), B)
	if d := modeltest.MaxAbsDiff(got.Data().([]float32), want); d > 1e-5 {
		t.Errorf("eager and graph step differ by %g", d)
	}
	// In place: next = prev.
	inPlace := append([]float32(nil), state.Data().([]float32)...)
	l.Step(&ws, inPlace, x.Data().([]float32), inPlace, B)
	if d := modeltest.MaxAbsDiff(inPlace, want); d != 0 {
		t.Errorf("in-place step differs by %g", d)
	}
}

func TestLSTMSplitState(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 9))
	ps := models.NewParams(tensor.Float32, r)
	l := models.NewLSTM(ps, "dec.lstm", 2, 3)
	state := toF32(modeltest.Random(r, 1, 2, 6))
	for half, name := range []string{"h", "c"} {
		got := runGraph(t, ps, []*tensor.Dense{state}, func(_ *models.Binding, in gorgonia.Nodes) (*gorgonia.Node, error) {
			h, c, err := l.SplitState(in[0])
			return []*gorgonia.Node{h, c}[half], err
		})
		s := state.Data().([]float32)
		want := append(append([]float32(nil), s[3*half:3*half+3]...), s[6+3*half:6+3*half+3]...)
		got = got.Materialize().(*tensor.Dense)
		if d := modeltest.MaxAbsDiff(got.Data().([]float32), want); d != 0 {
			t.Errorf("%s: got %v, want %v", name, got.Data(), want)
		}
	}
}

// unrollSteps runs l one step at a time over each sequence's real frames:
// the reference for the fused sequence pass.
func unrollSteps(l *models.LSTM, x []float32, T int, lengths []int, reverse bool) []float32 {
	H, I := l.Hidden, l.In
	out := make([]float32, len(lengths)*T*H)
	var ws models.LSTMWorkspace
	for b, n := range lengths {
		state := make([]float32, 2*H)
		for s := range n {
			t := s
			if reverse {
				t = n - 1 - s
			}
			l.Step(&ws, state, x[(b*T+t)*I:(b*T+t+1)*I], state, 1)
			copy(out[(b*T+t)*H:], state[:H])
		}
	}
	return out
}

func TestLSTMSequenceMatchesStepsAndGraph(t *testing.T) {
	const I, H = 3, 4
	for i, c := range seqCases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(i), 10))
			ps := models.NewParams(tensor.Float32, r)
			l := models.NewLSTM(ps, "enc", I, H)
			randomizeParams(ps, r)
			B := len(c.lengths)
			x := toF32(modeltest.Random(r, 1, B, c.T, I))
			var ws models.LSTMWorkspace
			got, err := l.Forward(&ws, nil, x.Data().([]float32), B, c.T, c.lengths)
			if err != nil {
				t.Fatal(err)
			}
			want := unrollSteps(l, x.Data().([]float32), c.T, c.lengths, false)
			if d := modeltest.MaxAbsDiff(got, want); d > 1e-6 {
				t.Errorf("sequence and unrolled steps differ by %g", d)
			}
			graph := runGraph(t, ps, []*tensor.Dense{x, ints(tensor.Float32, []int{B}, c.lengths...)}, func(b *models.Binding, in gorgonia.Nodes) (*gorgonia.Node, error) {
				return l.Apply(b, in[0], in[1])
			})
			if d := modeltest.MaxAbsDiff(graph.Data().([]float32), got); d > 1e-5 {
				t.Errorf("eager and graph differ by %g", d)
			}
		})
	}
}

// A bucket's graph is compiled once and run on many batches: lengths change
// between runs, and the state saved in the kernels must follow. Each run of
// one reused graph must match a freshly built graph, outputs and gradients.
func TestBiLSTMGraphRerunWithNewLengths(t *testing.T) {
	const B, T, I, H = 3, 5, 2, 3
	r := rand.New(rand.NewPCG(2, 11))
	ps := models.NewParams(tensor.Float32, r)
	l := models.NewBiLSTM(ps, "enc", I, H)
	proj := toF32(modeltest.Random(r, 1, B, T, 2*H))
	type inputs struct{ x, lengths, y *gorgonia.Node }
	build := func(g *gorgonia.ExprGraph, b *models.Binding, _ struct{}) (*gorgonia.Node, inputs, error) {
		x := gorgonia.NewTensor(g, tensor.Float32, 3, gorgonia.WithShape(B, T, I), gorgonia.WithName("x"))
		lengths := gorgonia.NewVector(g, tensor.Float32, gorgonia.WithShape(B), gorgonia.WithName("lengths"))
		y, err := l.Apply(b, x, lengths)
		if err != nil {
			return nil, inputs{}, err
		}
		p := gorgonia.NodeFromAny(g, proj, gorgonia.WithName("proj"))
		loss, err := gorgonia.Sum(gorgonia.Must(gorgonia.HadamardProd(y, p)))
		return loss, inputs{x, lengths, y}, err
	}
	// run feeds a batch to a bucket's graph and returns its loss and the
	// collected gradients.
	run := func(bs *models.Buckets[struct{}, inputs], x *tensor.Dense, lengths []int) (float64, []float32) {
		gr, err := bs.Get(struct{}{})
		if err != nil {
			t.Fatal(err)
		}
		gorgonia.Let(gr.Inputs.x, x)
		gorgonia.Let(gr.Inputs.lengths, ints(tensor.Float32, []int{B}, lengths...))
		ps.ZeroGrads()
		loss, err := gr.Run()
		if err != nil {
			t.Fatal(err)
		}
		var grads []float32
		for _, p := range ps.All() {
			grads = append(grads, p.Grad.Data().([]float32)...)
		}
		return loss, grads
	}
	reused := models.NewBuckets(ps, build)
	defer reused.Close()
	for i, lengths := range [][]int{{5, 2, 4}, {1, 5, 0}, {5, 5, 5}, {3, 0, 2}} {
		x := toF32(modeltest.Random(r, 1, B, T, I))
		loss, grads := run(reused, x, lengths)
		fresh := models.NewBuckets(ps, build)
		wantLoss, wantGrads := run(fresh, x, lengths)
		fresh.Close()
		if loss != wantLoss {
			t.Errorf("run %d (lengths %v): loss %v, fresh graph %v", i, lengths, loss, wantLoss)
		}
		if d := modeltest.MaxAbsDiff(grads, wantGrads); d != 0 {
			t.Errorf("run %d (lengths %v): gradients differ from a fresh graph's by %g", i, lengths, d)
		}
	}
}

func TestLSTMRejectsBadLengths(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 12))
	ps := models.NewParams(tensor.Float32, r)
	l := models.NewLSTM(ps, "enc", 2, 2)
	x := make([]float32, 2*3*2)
	cases := []struct {
		name    string
		lengths []int
	}{
		{"too long", []int{3, 4}},
		{"negative", []int{-1, 2}},
		{"wrong count", []int{3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var ws models.LSTMWorkspace
			if _, err := l.Forward(&ws, nil, x, 2, 3, c.lengths); !isBadIndex(err) {
				t.Errorf("eager: error %v, want ErrBadIndex", err)
			}
		})
	}
	in := seqInputs(r, 3, 2, 2, 1, []int{3, 3})
	in[1] = ints(tensor.Float64, []int{2}, 2, 4)
	if _, err := modeltest.Eager(models.NewLSTMSeqKernel(), in); !isBadIndex(err) {
		t.Errorf("kernel: error %v, want ErrBadIndex", err)
	}
}

// Shape mismatches are caught when the graph is built, with the kernel's
// name and the offending shapes.
func TestKernelsRejectBadShapes(t *testing.T) {
	s := func(dims ...int) tensor.Shape { return tensor.Shape(dims) }
	cases := []struct {
		name   string
		kernel models.Kernel
		shapes []tensor.Shape
	}{
		{"step: state width", models.NewLSTMStepKernel(), []tensor.Shape{s(2, 3), s(2, 5), s(3, 8), s(2, 8), s(8)}},
		{"step: Wx rows", models.NewLSTMStepKernel(), []tensor.Shape{s(2, 3), s(2, 4), s(4, 8), s(2, 8), s(8)}},
		{"step: inputs", models.NewLSTMStepKernel(), []tensor.Shape{s(2, 3), s(2, 4)}},
		{"LSTM: x rank", models.NewLSTMSeqKernel(), []tensor.Shape{s(2, 3), s(2), s(3, 8), s(2, 8), s(8)}},
		{"LSTM: lengths", models.NewLSTMSeqKernel(), []tensor.Shape{s(2, 4, 3), s(3), s(3, 8), s(2, 8), s(8)}},
		{"LSTM: bias", models.NewLSTMSeqKernel(), []tensor.Shape{s(2, 4, 3), s(2), s(3, 8), s(2, 8), s(4)}},
		{"BiLSTM: hidden sizes", models.NewBiLSTMKernel(), []tensor.Shape{s(2, 4, 3), s(2), s(3, 8), s(2, 8), s(8), s(3, 12), s(3, 12), s(12)}},
		{"BiLSTM: one direction", models.NewBiLSTMKernel(), []tensor.Shape{s(2, 4, 3), s(2), s(3, 8), s(2, 8), s(8)}},
		{"pyramid: lengths", models.NewPyramidKernel(), []tensor.Shape{s(2, 4, 3), s(4)}},
		{"embedding: table rank", models.NewEmbeddingKernel(), []tensor.Shape{s(2, 3), s(10)}},
		{"CTC: targets batch", models.NewCTCKernel(0), []tensor.Shape{s(2, 5, 4), s(3, 2), s(2), s(2)}},
		{"CTC: blank", models.NewCTCKernel(4), []tensor.Shape{s(2, 5, 4), s(2, 2), s(2), s(2)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := c.kernel.OutputShape(c.shapes); err == nil {
				t.Errorf("%s accepted %v", c.kernel.Name(), c.shapes)
			}
		})
	}
}

func ExampleLSTM_Step() {
	r := rand.New(rand.NewPCG(1, 2))
	ps := models.NewParams(tensor.Float32, r)
	cell := models.NewLSTM(ps, "speller.lstm", 3, 2)
	var ws models.LSTMWorkspace
	state := make([]float32, 2*2) // one row [h | c], zero at start
	for _, x := range [][]float32{{1, 0, 0}, {0, 1, 0}} {
		cell.Step(&ws, state, x, state, 1)
	}
	fmt.Println("state is [h | c] of width", len(state))
	// Output: state is [h | c] of width 4
}
