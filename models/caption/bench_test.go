package caption_test

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/caption"
)

// benchVocab is a vocabulary of V tokens, about Flickr8k's at minimum
// count 5.
func benchVocab(b testing.TB, V int) *caption.Vocab {
	list := []string{"<pad>", "<start>", "<end>", "<unk>"}
	for i := len(list); i < V; i++ {
		list = append(list, fmt.Sprintf("w%d", i))
	}
	v, err := caption.NewVocab(list)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

// benchConfig is the benchmark model: E = 256, H = 512, A = 256,
// V = 3000, on a grid of L regions of width D.
func benchConfig(L, D int, attention string) caption.Config {
	return caption.Config{Regions: L, FeatureDim: D, Embed: 256, Hidden: 512, AttentionDim: 256, Attention: attention}
}

var benchGrids = []struct {
	name string
	L, D int
}{
	{"L49_D1280", 49, 1280}, // MobileNetV2 final 7×7 map
	{"L196_D576", 196, 576}, // MobileNetV2 block-13 14×14 map
}

// BenchmarkTrainStep times one training step (forward, backward and Adam)
// of a batch of 32 captions of 15 words (S = 16), dropout and penalty on.
func BenchmarkTrainStep(b *testing.B) {
	for _, g := range benchGrids {
		b.Run("soft_"+g.name, func(b *testing.B) { benchTrainStep(b, benchConfig(g.L, g.D, caption.Soft)) })
	}
	b.Run("hard_L196_D576", func(b *testing.B) { benchTrainStep(b, benchConfig(196, 576, caption.Hard)) })
	b.Run("adaptive_L49_D1280", func(b *testing.B) { benchTrainStep(b, adaptiveBenchConfig(49, 1280)) })
}

// adaptiveBenchConfig is benchConfig with adaptive attention (no gate).
func adaptiveBenchConfig(L, D int) caption.Config {
	c := benchConfig(L, D, caption.Adaptive)
	c.NoGate = true
	return c
}

func benchTrainStep(b *testing.B, cfg caption.Config) {
	const B, words = 32, 15
	m, err := caption.New(cfg, benchVocab(b, 3000), 1)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	exs := make([]caption.Example, B)
	for i := range exs {
		exs[i].Features = randomFeatures(rng, cfg.Regions, cfg.FeatureDim)
		for range words {
			exs[i].Tokens = append(exs[i].Tokens, caption.Unk+rng.IntN(m.Config.Vocab-caption.Unk))
		}
	}
	key := caption.KeyFor(exs, 1)
	bt, err := m.MakeBatch(key, exs)
	if err != nil {
		b.Fatal(err)
	}
	tr := caption.NewTrainer(m, 3)
	buckets := models.NewBuckets(m.Params, tr.BuildLoss)
	defer buckets.Close()
	opt := models.NewAdam(m.Params, nil)
	gr, err := buckets.Get(key)
	if err != nil {
		b.Fatal(err)
	}
	step := func() {
		if _, err := tr.Run(gr, bt); err != nil {
			b.Fatal(err)
		}
		if _, err := opt.Step(); err != nil {
			b.Fatal(err)
		}
	}
	step() // first run allocates the graph's buffers
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		step()
	}
	reportCPU(b, cpu)
}

// reportCPU reports the process's CPU time per operation since cpu, in
// milliseconds (both cores count: the SGEMM splits large products).
func reportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
}

// BenchmarkBeam times captioning one image with beam search of width 3
// (and greedy search) on an untrained model: it rarely says End, so every
// search runs the full 30 steps; ns/step is the time of one step.
func BenchmarkBeam(b *testing.B) {
	for _, g := range benchGrids {
		for _, k := range []int{1, 3} {
			b.Run(fmt.Sprintf("k%d_%s", k, g.name), func(b *testing.B) { benchBeam(b, benchConfig(g.L, g.D, caption.Soft), k) })
		}
	}
	for _, k := range []int{1, 3} {
		b.Run(fmt.Sprintf("adaptive_k%d_L49_D1280", k), func(b *testing.B) { benchBeam(b, adaptiveBenchConfig(49, 1280), k) })
	}
}

func benchBeam(b *testing.B, cfg caption.Config, k int) {
	m, err := caption.New(cfg, benchVocab(b, 3000), 1)
	if err != nil {
		b.Fatal(err)
	}
	features := randomFeatures(rand.New(rand.NewPCG(3, 4)), cfg.Regions, cfg.FeatureDim)
	var ws caption.Workspace
	full := true // every search ran MaxLength = 30 steps
	run := func() {
		hyps, err := m.Beam(&ws, features, k, nil)
		if err != nil {
			b.Fatal(err)
		}
		full = full && !hyps[0].Finished
	}
	run()
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		run()
	}
	reportCPU(b, cpu)
	if full {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(30*b.N), "ns/step")
	}
}
