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

func benchListenerTrainStep(b *testing.B, B, T, I, H, layers int) {
	r := rand.New(rand.NewPCG(1, 1))
	ps := models.NewParams(tensor.Float32, r)
	listener := models.NewPyramidalBiLSTM(ps, "listener", I, H, layers)
	T2 := listener.OutputLength(T)
	proj := toF32(modeltest.Random(r, 1, B, T2, 2*H))
	type inputs struct{ x, lengths *gorgonia.Node }
	bs := models.NewBuckets(ps, func(g *gorgonia.ExprGraph, bind *models.Binding, _ struct{}) (*gorgonia.Node, inputs, error) {
		x := gorgonia.NewTensor(g, tensor.Float32, 3, gorgonia.WithShape(B, T, I), gorgonia.WithName("x"))
		lengths := gorgonia.NewVector(g, tensor.Float32, gorgonia.WithShape(B), gorgonia.WithName("lengths"))
		y, _, err := listener.Apply(bind, x, lengths)
		if err != nil {
			return nil, inputs{}, err
		}
		p := gorgonia.NodeFromAny(g, proj, gorgonia.WithName("proj"))
		prod, err := gorgonia.HadamardProd(y, p)
		if err != nil {
			return nil, inputs{}, err
		}
		loss, err := gorgonia.Sum(prod)
		return loss, inputs{x, lengths}, err
	})
	defer bs.Close()
	gr, err := bs.Get(struct{}{})
	if err != nil {
		b.Fatal(err)
	}
	lengths := make([]int, B)
	for i := range lengths {
		lengths[i] = T
	}
	gorgonia.Let(gr.Inputs.x, toF32(modeltest.Random(r, 1, B, T, I)))
	gorgonia.Let(gr.Inputs.lengths, ints(tensor.Float32, []int{B}, lengths...))
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
