package models_test

import (
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// BenchmarkBiLSTMTrainStep is one training step of a LAS listener: a
// 2-layer pyramidal BiLSTM (BiLSTM over 400 frames of 80 features, then
// pyramid + BiLSTM over 200), 256 units per direction, batch 16, forward
// and backward through a compiled gorgonia graph with the loss Σ y⊙R,
// gradients collected into the parameter store.
func BenchmarkBiLSTMTrainStep(b *testing.B) { benchListenerTrainStep(b, 16, 400, 80, 256, 2) }

// BenchmarkBiLSTMTrainStepBF16 is BenchmarkBiLSTMTrainStep with the
// matrix products in bfloat16 with float32 sums (UseBF16), where the CPU
// has AVX512_BF16; bench/run.sh --bf16 runs it.
func BenchmarkBiLSTMTrainStepBF16(b *testing.B) {
	if err := models.UseBF16(true); err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { models.UseBF16(false) })
	benchListenerTrainStep(b, 16, 400, 80, 256, 2)
}

// BenchmarkBiLSTMTrainStepReplicas is BenchmarkBiLSTMTrainStep with the
// batch of 16 run as two replicas of 8 (Replicas, asr train -replicas 2).
// Compare its two-thread time with BenchmarkBiLSTMTrainStep's one-thread
// time.
func BenchmarkBiLSTMTrainStepReplicas(b *testing.B) {
	benchListenerTrainStepReplicas(b, 16, 400, 80, 256, 2, 2)
}

// BenchmarkBiLSTMTrainStepReplicasBF16 is BenchmarkBiLSTMTrainStepReplicas
// with bfloat16 products.
func BenchmarkBiLSTMTrainStepReplicasBF16(b *testing.B) {
	if err := models.UseBF16(true); err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { models.UseBF16(false) })
	benchListenerTrainStepReplicas(b, 16, 400, 80, 256, 2, 2)
}

// listenerBench is a listener with the loss Σ y⊙R over its output, for a
// batch of B utterances of T frames; a graph of a sub-batch (key: its
// first utterance and size) reads its rows of x and R.
type listenerBench struct {
	ps       *models.Params
	listener *models.PyramidalBiLSTM
	B, T, I  int
	x, proj  []float32 // B×T×I, B×T2×2H
	T2, H2   int
}

type listenerInputs struct{ x, lengths *gorgonia.Node }

type subBatch struct{ lo, n int }

func newListenerBench(B, T, I, H, layers int) *listenerBench {
	r := rand.New(rand.NewPCG(1, 1))
	ps := models.NewParams(tensor.Float32, r)
	lb := &listenerBench{ps: ps, listener: models.NewPyramidalBiLSTM(ps, "listener", I, H, layers), B: B, T: T, I: I, H2: 2 * H}
	lb.T2 = lb.listener.OutputLength(T)
	lb.proj = toF32(modeltest.Random(r, 1, B, lb.T2, 2*H)).Data().([]float32)
	lb.x = toF32(modeltest.Random(r, 1, B, T, I)).Data().([]float32)
	return lb
}

func (lb *listenerBench) build(g *gorgonia.ExprGraph, bind *models.Binding, k subBatch) (*gorgonia.Node, listenerInputs, error) {
	x := gorgonia.NewTensor(g, tensor.Float32, 3, gorgonia.WithShape(k.n, lb.T, lb.I), gorgonia.WithName("x"))
	lengths := gorgonia.NewVector(g, tensor.Float32, gorgonia.WithShape(k.n), gorgonia.WithName("lengths"))
	y, _, err := lb.listener.Apply(bind, x, lengths)
	if err != nil {
		return nil, listenerInputs{}, err
	}
	rows := lb.proj[k.lo*lb.T2*lb.H2 : (k.lo+k.n)*lb.T2*lb.H2]
	p := gorgonia.NodeFromAny(g, tensor.New(tensor.WithShape(k.n, lb.T2, lb.H2), tensor.WithBacking(rows)), gorgonia.WithName("proj"))
	prod, err := gorgonia.HadamardProd(y, p)
	if err != nil {
		return nil, listenerInputs{}, err
	}
	loss, err := gorgonia.Sum(prod)
	return loss, listenerInputs{x, lengths}, err
}

// bind lets a graph's inputs be utterances k.lo..k.lo+k.n-1, all T long.
func (lb *listenerBench) bind(in listenerInputs, k subBatch) error {
	lengths := make([]int, k.n)
	for i := range lengths {
		lengths[i] = lb.T
	}
	x := tensor.New(tensor.WithShape(k.n, lb.T, lb.I), tensor.WithBacking(lb.x[k.lo*lb.T*lb.I:(k.lo+k.n)*lb.T*lb.I]))
	if err := gorgonia.Let(in.x, x); err != nil {
		return err
	}
	return gorgonia.Let(in.lengths, ints(tensor.Float32, []int{k.n}, lengths...))
}

func benchListenerTrainStep(b *testing.B, B, T, I, H, layers int) {
	lb := newListenerBench(B, T, I, H, layers)
	bs := models.NewBuckets(lb.ps, lb.build)
	defer bs.Close()
	k := subBatch{0, B}
	gr, err := bs.Get(k)
	if err != nil {
		b.Fatal(err)
	}
	if err := lb.bind(gr.Inputs, k); err != nil {
		b.Fatal(err)
	}
	if _, err := gr.Run(); err != nil { // warm-up: buffers reach their steady size
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := gr.Run(); err != nil {
			b.Fatal(err)
		}
	}
}

func benchListenerTrainStepReplicas(b *testing.B, B, T, I, H, layers, r int) {
	lb := newListenerBench(B, T, I, H, layers)
	rs := models.NewReplicas(lb.ps, r, func(int) models.BuildFunc[subBatch, listenerInputs] { return lb.build })
	defer rs.Close()
	graphs := make([]*models.Graph[listenerInputs], r)
	for i := range graphs {
		k := subBatch{i * B / r, (i+1)*B/r - i*B/r}
		gr, err := rs.Get(i, k)
		if err != nil {
			b.Fatal(err)
		}
		if err := lb.bind(gr.Inputs, k); err != nil {
			b.Fatal(err)
		}
		graphs[i] = gr
	}
	if _, err := rs.Run(graphs); err != nil { // warm-up
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := rs.Run(graphs); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBiLSTMEagerForward is the listener's eager inference over one
// 400-frame utterance.
func BenchmarkBiLSTMEagerForward(b *testing.B) {
	const T, I, H = 400, 80, 256
	r := rand.New(rand.NewPCG(1, 1))
	ps := models.NewParams(tensor.Float32, r)
	listener := models.NewPyramidalBiLSTM(ps, "listener", I, H, 2)
	x := toF32(modeltest.Random(r, 1, 1, T, I)).Data().([]float32)
	var ws models.LSTMWorkspace
	y, _, _, err := listener.Forward(&ws, nil, x, 1, T, []int{T})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		y, _, _, _ = listener.Forward(&ws, y, x, 1, T, []int{T})
	}
}

// BenchmarkLSTMStepEager is one decoder step at beam width 1.
func BenchmarkLSTMStepEager(b *testing.B) {
	const I, H = 512, 256
	r := rand.New(rand.NewPCG(1, 1))
	ps := models.NewParams(tensor.Float32, r)
	cell := models.NewLSTM(ps, "speller", I, H)
	x := toF32(modeltest.Random(r, 1, 1, I)).Data().([]float32)
	state := make([]float32, 2*H)
	var ws models.LSTMWorkspace
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		cell.Step(&ws, state, x, state, 1)
	}
}

// BenchmarkCTCLoss is the CTC forward–backward of a batch of 16
// sequences of 100 frames over 32 labels with 30-label targets.
func BenchmarkCTCLoss(b *testing.B) {
	const B, T, V, S = 16, 100, 32, 30
	r := rand.New(rand.NewPCG(1, 1))
	tg := make([]int, B*S)
	for i := range tg {
		tg[i] = 1 + r.IntN(V-1)
	}
	lens := make([]int, B)
	tls := make([]int, B)
	for i := range lens {
		lens[i], tls[i] = T, S
	}
	in := []*tensor.Dense{
		toF32(modeltest.Random(r, 2, B, T, V)),
		ints(tensor.Float32, []int{B, S}, tg...),
		ints(tensor.Float32, []int{B}, lens...),
		ints(tensor.Float32, []int{B}, tls...),
	}
	k := models.NewCTCKernel(0)
	out := tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(B))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := k.Forward(out, in); err != nil {
			b.Fatal(err)
		}
	}
}
