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

// randomBatch binds a batch with memory lengths in [T/2, T] and target
// lengths in [S/2, S], like the probe's.
func (in benchInputs) randomBatch(dt tensor.Dtype, B int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 5))
	mem := make([]float32, B*dbT*dbD)
	for i := range mem {
		mem[i] = float32(r.NormFloat64())
	}
	mask := make([]float32, B*dbT)
	decIn, targets := make([]int, dbS*B), make([]int, dbS*B)
	weights := make([]float32, dbS*B)
	tokens := 0
	for b := 0; b < B; b++ {
		ml := dbT/2 + r.IntN(dbT/2+1)
		for t := 0; t < ml; t++ {
			mask[b*dbT+t] = 1
		}
		tl := dbS/2 + r.IntN(dbS/2+1)
		prev := 0
		for i := 0; i < dbS; i++ {
			decIn[i*B+b], targets[i*B+b] = models.PadID, models.PadID
			if i < tl {
				c := r.IntN(dbV)
				decIn[i*B+b], targets[i*B+b] = prev, c
				prev = c
				tokens++
			}
		}
	}
	for i, t := range targets {
		if t != models.PadID {
			weights[i] = 1 / float32(tokens)
		}
	}
	for _, p := range []struct {
		n *gorgonia.Node
		v *tensor.Dense
	}{
		{in.memory, models.FloatTensor(dt, mem, B, dbT, dbD)},
		{in.mask, models.FloatTensor(dt, mask, B, dbT)},
		{in.decIn, models.IntTensor(dt, decIn, dbS, B)},
		{in.targets, models.IntTensor(dt, targets, dbS*B)},
		{in.weights, models.FloatTensor(dt, weights, dbS*B)},
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
	if err := gr.Inputs.randomBatch(tensor.Float32, dbB, 1); err != nil {
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
