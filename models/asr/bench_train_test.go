package asr

import (
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
)

// BenchmarkTrainStep is one optimizer step of the default model (listener,
// location-aware speller, joint CTC, dropout) on a batch shaped like the
// middle of the real recipe's bucket grid: 16 utterances of 166–208
// stacked frames (5–6 s) with 89–111 characters, in the graph of key
// {16, 208, 112}. Forward, backward and Adam; the graph is built and run
// once outside the timing.
func BenchmarkTrainStep(b *testing.B) { benchmarkTrainStep(b, DefaultConfig()) }

// BenchmarkTrainStepBF16 is BenchmarkTrainStep with the matrix products
// in bfloat16 with float32 sums (models.UseBF16, asr train -bf16), where
// the CPU has AVX512_BF16.
func BenchmarkTrainStepBF16(b *testing.B) {
	withBF16(b)
	benchmarkTrainStep(b, DefaultConfig())
}

// BenchmarkTrainStepReplicasBF16 is BenchmarkTrainStepReplicas with
// bfloat16 products.
func BenchmarkTrainStepReplicasBF16(b *testing.B) {
	withBF16(b)
	benchmarkReplicatedStep(b, DefaultConfig(), 2)
}

// withBF16 switches the products to bfloat16 for the benchmark, or skips
// it where the CPU has no such kernel.
func withBF16(b *testing.B) {
	if err := models.UseBF16(true); err != nil {
		b.Skip(err)
	}
	b.Cleanup(func() { models.UseBF16(false) })
}

// BenchmarkTrainStepPhoneCTC is BenchmarkTrainStep with a phone CTC head
// of weight 0.2 on the first listener layer, each utterance with 4/5 as
// many phones as characters.
func BenchmarkTrainStepPhoneCTC(b *testing.B) {
	cfg := DefaultConfig()
	cfg.PhoneCTCWeight = 0.2
	benchmarkTrainStep(b, cfg)
}

// BenchmarkTrainStepReplicas is BenchmarkTrainStep with the batch split
// over two replicas (models.Replicas, asr train -replicas 2): two graphs
// of 8 utterances, each of the key that fits its half, run concurrently.
// Compare with BenchmarkTrainStep at -cpu 1,2.
func BenchmarkTrainStepReplicas(b *testing.B) { benchmarkReplicatedStep(b, DefaultConfig(), 2) }

// benchExamples are 16 utterances of 166–208 stacked frames with 89–111
// characters (and phones for a phone head), and the key {16, 208, 112}.
func benchExamples(m *Model) ([]Example, BatchKey) {
	const B, T, S = 16, 208, 112
	r := rand.New(rand.NewPCG(3, 3))
	exs := make([]Example, B)
	for i := range exs {
		n := T*4/5 + r.IntN(T/5+1)
		frames := n * m.Config.Stack
		e := Example{Frames: frames, Features: make([]float32, frames*m.Config.MelBins)}
		for j := range e.Features {
			e.Features[j] = float32(r.NormFloat64())
		}
		e.Tokens = make([]int, S*4/5+r.IntN(S/5))
		for j := range e.Tokens {
			e.Tokens[j] = 1 + r.IntN(m.Vocab.Size()-1)
		}
		if m.PhoneCTC != nil {
			e.Phones = make([]int, len(e.Tokens)*4/5)
			for j := range e.Phones {
				e.Phones[j] = 1 + r.IntN(len(Phones))
			}
		}
		exs[i] = e
	}
	return exs, BatchKey{B: B, T: T, S: S}
}

func benchmarkTrainStep(b *testing.B, cfg Config) {
	m, err := New(cfg, nil, 1)
	if err != nil {
		b.Fatal(err)
	}
	exs, key := benchExamples(m)
	bt, err := m.MakeBatch(key, exs)
	if err != nil {
		b.Fatal(err)
	}
	buckets := models.NewBuckets(m.Params, m.BuildFunc(rand.New(rand.NewPCG(1, 7))))
	defer buckets.Close()
	gr, err := buckets.Get(key)
	if err != nil {
		b.Fatal(err)
	}
	if err := gr.Inputs.Bind(bt); err != nil {
		b.Fatal(err)
	}
	opt := models.NewAdam(m.Params, nil)
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

func benchmarkReplicatedStep(b *testing.B, cfg Config, r int) {
	m, err := New(cfg, nil, 1)
	if err != nil {
		b.Fatal(err)
	}
	exs, _ := benchExamples(m)
	parts := SplitExamples(exs, r)
	keys := make([]BatchKey, r)
	for i, p := range parts {
		keys[i] = m.KeyFor(p, 8, 8)
	}
	bts, err := m.MakeBatches(keys, parts)
	if err != nil {
		b.Fatal(err)
	}
	rs := models.NewReplicas(m.Params, r, func(i int) models.BuildFunc[BatchKey, Inputs] {
		return m.BuildFunc(rand.New(rand.NewPCG(1, 7+uint64(i)<<32)))
	})
	defer rs.Close()
	graphs := make([]*models.Graph[Inputs], r)
	for i, bt := range bts {
		if graphs[i], err = rs.Get(i, keys[i]); err != nil {
			b.Fatal(err)
		}
		if err := graphs[i].Inputs.Bind(bt); err != nil {
			b.Fatal(err)
		}
	}
	opt := models.NewAdam(m.Params, nil)
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
