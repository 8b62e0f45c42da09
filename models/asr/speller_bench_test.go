package asr_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The decoder benchmark of DESIGN.md "Compute strategy": batch 32, a memory
// of 100 entries of width 256, hidden = attention = 256, 30 output steps,
// vocabulary 30, embeddings of 64.
const (
	dbB, dbT, dbD, dbH, dbA, dbS, dbV, dbE = 32, 100, 256, 256, 256, 30, 30, 64
)

// decoderBench is a teacher-forced decoder over a fixed random memory.
type decoderBench struct {
	ps  *models.Params
	dec *asr.Speller
}

func newDecoderBench(tb testing.TB, dt tensor.Dtype) *decoderBench {
	ps := models.NewParams(dt, rand.New(rand.NewPCG(1, 1)))
	att, err := attention.NewAdditive(ps, "dec.att", dbH, dbD, dbA)
	if err != nil {
		tb.Fatal(err)
	}
	dec, err := asr.NewSpeller(ps, "dec", asr.SpellerConfig{Vocab: dbV, Embed: dbE, Hidden: dbH}, att)
	if err != nil {
		tb.Fatal(err)
	}
	return &decoderBench{ps: ps, dec: dec}
}

type benchInputs struct{ memory, mask, decIn, targets, weights *gorgonia.Node }

func (d *decoderBench) build(g *gorgonia.ExprGraph, b *models.Binding, B int) (*gorgonia.Node, benchInputs, error) {
	dt := d.ps.Dtype()
	in := benchInputs{
		memory:  gorgonia.NewTensor(g, dt, 3, gorgonia.WithShape(B, dbT, dbD), gorgonia.WithName("memory")),
		mask:    gorgonia.NewMatrix(g, dt, gorgonia.WithShape(B, dbT), gorgonia.WithName("mask")),
		decIn:   gorgonia.NewMatrix(g, dt, gorgonia.WithShape(dbS, B), gorgonia.WithName("dec_in")),
		targets: gorgonia.NewVector(g, dt, gorgonia.WithShape(dbS*B), gorgonia.WithName("targets")),
		weights: gorgonia.NewVector(g, dt, gorgonia.WithShape(dbS*B), gorgonia.WithName("weights")),
	}
	keys, err := d.dec.Attention.PrepareNodes(b, in.memory, in.mask)
	if err != nil {
		return nil, in, err
	}
	u, err := d.dec.Unroll(b, keys, in.decIn)
	if err != nil {
		return nil, in, err
	}
	loss, err := models.CrossEntropy(u.Logits, in.targets, in.weights, 0)
	return loss, in, err
}

// benchBatch is a random decoder batch of B sequences with memory lengths
// in [T/2, T] and target lengths in [S/2, S], like the probe's; every
// target's weight is 1 / (the whole batch's target count), so the losses
// of sub-batches (sequences lo..hi-1) add up to the batch's loss.
type benchBatch struct {
	B              int
	mem, mask, wts []float32 // B×T×D, B×T, S×B
	decIn, targets []int     // S×B (time-major)
}

func newBenchBatch(B int, seed uint64) *benchBatch {
	r := rand.New(rand.NewPCG(seed, 5))
	bb := &benchBatch{B: B, mem: make([]float32, B*dbT*dbD), mask: make([]float32, B*dbT),
		decIn: make([]int, dbS*B), targets: make([]int, dbS*B), wts: make([]float32, dbS*B)}
	for i := range bb.mem {
		bb.mem[i] = float32(r.NormFloat64())
	}
	tokens := 0
	for b := 0; b < B; b++ {
		ml := dbT/2 + r.IntN(dbT/2+1)
		for t := 0; t < ml; t++ {
			bb.mask[b*dbT+t] = 1
		}
		tl := dbS/2 + r.IntN(dbS/2+1)
		prev := 0
		for i := 0; i < dbS; i++ {
			bb.decIn[i*B+b], bb.targets[i*B+b] = models.PadID, models.PadID
			if i < tl {
				c := r.IntN(dbV)
				bb.decIn[i*B+b], bb.targets[i*B+b] = prev, c
				prev = c
				tokens++
			}
		}
	}
	for i, t := range bb.targets {
		if t != models.PadID {
			bb.wts[i] = 1 / float32(tokens)
		}
	}
	return bb
}

// bind lets the inputs of a graph of hi-lo sequences be sequences lo..hi-1.
func (bb *benchBatch) bind(in benchInputs, dt tensor.Dtype, lo, hi int) error {
	n := hi - lo
	decIn, targets, wts := make([]int, dbS*n), make([]int, dbS*n), make([]float32, dbS*n)
	for i := 0; i < dbS; i++ {
		copy(decIn[i*n:(i+1)*n], bb.decIn[i*bb.B+lo:i*bb.B+hi])
		copy(targets[i*n:(i+1)*n], bb.targets[i*bb.B+lo:i*bb.B+hi])
		copy(wts[i*n:(i+1)*n], bb.wts[i*bb.B+lo:i*bb.B+hi])
	}
	for _, p := range []struct {
		n *gorgonia.Node
		v *tensor.Dense
	}{
		{in.memory, models.FloatTensor(dt, bb.mem[lo*dbT*dbD:hi*dbT*dbD], n, dbT, dbD)},
		{in.mask, models.FloatTensor(dt, bb.mask[lo*dbT:hi*dbT], n, dbT)},
		{in.decIn, models.IntTensor(dt, decIn, dbS, n)},
		{in.targets, models.IntTensor(dt, targets, dbS*n)},
		{in.weights, models.FloatTensor(dt, wts, dbS*n)},
	} {
		if err := gorgonia.Let(p.n, p.v); err != nil {
			return err
		}
	}
	return nil
}

// BenchmarkDecoderTrainStep times one training step of the teacher-forced
// LSTM decoder with additive attention (B=32, T=100, D=H=A=256, S=30,
// V=30): forward, backward and Adam. The probe measured 1.0 s with stock
// gorgonia ops and 0.6 s with one fused op; PyTorch takes 0.25–0.32 s.
func BenchmarkDecoderTrainStep(b *testing.B) { benchDecoderTrainStep(b) }

// BenchmarkDecoderTrainStepBF16 is BenchmarkDecoderTrainStep with the
// matrix products in bfloat16 with float32 sums (models.UseBF16), where
// the CPU has AVX512_BF16; bench/run.sh --bf16 runs it.
func BenchmarkDecoderTrainStepBF16(b *testing.B) {
	if err := models.UseBF16(true); err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { models.UseBF16(false) })
	benchDecoderTrainStep(b)
}

func benchDecoderTrainStep(b *testing.B) {
	d := newDecoderBench(b, tensor.Float32)
	buckets := models.NewBuckets(d.ps, d.build)
	defer buckets.Close()
	gr, err := buckets.Get(dbB)
	if err != nil {
		b.Fatal(err)
	}
	if err := newBenchBatch(dbB, 1).bind(gr.Inputs, tensor.Float32, 0, dbB); err != nil {
		b.Fatal(err)
	}
	opt := models.NewAdam(d.ps, nil)
	step := func() {
		if _, err := gr.Run(); err != nil {
			b.Fatal(err)
		}
		if _, err := opt.Step(); err != nil {
			b.Fatal(err)
		}
	}
	step() // the first run allocates the machine's registers
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		step()
	}
}

// BenchmarkDecoderTrainStepReplicas is BenchmarkDecoderTrainStep with the
// batch of 32 run as two replicas of 16 (models.Replicas, what asr train
// -replicas 2 does): two graphs on two goroutines, their gradients added.
// Compare its two-thread time with BenchmarkDecoderTrainStep's one-thread
// time: a speller step's products have only B rows, too small to split
// well over two cores, so one graph scales little (bench/README.md).
func BenchmarkDecoderTrainStepReplicas(b *testing.B) { benchDecoderTrainStepReplicas(b, 2) }

// BenchmarkDecoderTrainStepReplicasBF16 is BenchmarkDecoderTrainStepReplicas
// with bfloat16 products.
func BenchmarkDecoderTrainStepReplicasBF16(b *testing.B) {
	if err := models.UseBF16(true); err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { models.UseBF16(false) })
	benchDecoderTrainStepReplicas(b, 2)
}

func benchDecoderTrainStepReplicas(b *testing.B, r int) {
	d := newDecoderBench(b, tensor.Float32)
	rs := models.NewReplicas(d.ps, r, func(int) models.BuildFunc[int, benchInputs] { return d.build })
	defer rs.Close()
	bb := newBenchBatch(dbB, 1)
	graphs := make([]*models.Graph[benchInputs], r)
	for i := range graphs {
		lo, hi := i*dbB/r, (i+1)*dbB/r
		gr, err := rs.Get(i, hi-lo)
		if err != nil {
			b.Fatal(err)
		}
		if err := bb.bind(gr.Inputs, tensor.Float32, lo, hi); err != nil {
			b.Fatal(err)
		}
		graphs[i] = gr
	}
	opt := models.NewAdam(d.ps, nil)
	step := func() {
		if _, err := rs.Run(graphs); err != nil {
			b.Fatal(err)
		}
		if _, err := opt.Step(); err != nil {
			b.Fatal(err)
		}
	}
	step() // the first run allocates the machines' registers
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		step()
	}
}

// BenchmarkDecoderStepEager times one eager inference step of the whole
// decoder (embedding, LSTM cell, additive attention over T=100, output
// layer) at B=1 (greedy) and B=8 (a beam of 8). Goal: ≤ 0.3 ms at B=1.
func BenchmarkDecoderStepEager(b *testing.B) {
	for _, B := range []int{1, 8} {
		b.Run(fmt.Sprintf("B=%d", B), func(b *testing.B) {
			d := newDecoderBench(b, tensor.Float32)
			r := rand.New(rand.NewPCG(2, 2))
			mem := make([]float32, B*dbT*dbD)
			for i := range mem {
				mem[i] = float32(r.NormFloat64())
			}
			keys, err := d.dec.Attention.Prepare(mem, nil, B, dbT)
			if err != nil {
				b.Fatal(err)
			}
			var ws asr.SpellerWorkspace
			cur, next := d.dec.Start(B), d.dec.Start(B)
			tokens := make([]int, B)
			for range 2 {
				if _, err := d.dec.Step(&ws, next, cur, keys, tokens); err != nil {
					b.Fatal(err)
				}
				cur, next = next, cur
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := d.dec.Step(&ws, next, cur, keys, tokens); err != nil {
					b.Fatal(err)
				}
				cur, next = next, cur
			}
		})
	}
}
