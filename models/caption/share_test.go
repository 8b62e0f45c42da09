package caption_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/caption"
)

// TestShareSumsToBatch: the gradients of a batch's two shares (Share),
// each in its own graph, add up to the whole batch's gradient, and their
// losses to its loss (soft attention with the doubly stochastic penalty,
// no dropout): what data-parallel training over processes relies on.
func TestShareSumsToBatch(t *testing.T) {
	cfg := caption.DefaultConfig()
	cfg.Regions, cfg.FeatureDim, cfg.Embed, cfg.Hidden, cfg.AttentionDim = 4, 8, 8, 16, 8
	cfg.Dropout = 0
	vocab, err := caption.BuildVocab([][]string{{"a", "dog", "runs", "on", "grass", "a", "cat"}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := caption.New(cfg, vocab, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	exs := make([]caption.Example, 5)
	for i := range exs {
		exs[i].Tokens = make([]int, 2+i%3)
		for j := range exs[i].Tokens {
			exs[i].Tokens[j] = caption.Unk + rng.IntN(vocab.Size()-caption.Unk)
		}
		exs[i].Features = make([]float32, cfg.Regions*cfg.FeatureDim)
		for j := range exs[i].Features {
			exs[i].Features[j] = rng.Float32()
		}
	}
	tr := caption.NewTrainer(m, 1)
	buckets := models.NewBuckets(m.Params, tr.BuildLoss)
	defer buckets.Close()
	run := func(exs []caption.Example, total int) float64 {
		key := caption.KeyFor(exs, 1)
		bt, err := m.MakeBatch(key, exs)
		if err != nil {
			t.Fatal(err)
		}
		if total > 0 {
			if err := bt.Share(total); err != nil {
				t.Fatal(err)
			}
		}
		gr, err := buckets.Get(key)
		if err != nil {
			t.Fatal(err)
		}
		l, err := tr.Run(gr, bt)
		if err != nil {
			t.Fatal(err)
		}
		return l.Total
	}
	grads := func() [][]float32 {
		var g [][]float32
		for _, p := range m.Params.All() {
			g = append(g, append([]float32(nil), p.Grad.Data().([]float32)...))
		}
		m.Params.ZeroGrads()
		return g
	}
	whole := run(exs, 0)
	want := grads()
	total := 0
	for _, e := range exs {
		total += len(e.Tokens) + 1
	}
	shares := run(exs[:2], total) + run(exs[2:], total)
	got := grads()
	if math.Abs(shares-whole) > 1e-5 {
		t.Errorf("losses of the shares sum to %.7g, the whole batch's is %.7g", shares, whole)
	}
	for i, p := range m.Params.All() {
		for j := range want[i] {
			if d := math.Abs(float64(got[i][j] - want[i][j])); d > 1e-6+1e-4*math.Abs(float64(want[i][j])) {
				t.Fatalf("%s[%d]: shares' gradient %.7g, the whole batch's %.7g", p.Name, j, got[i][j], want[i][j])
			}
		}
	}
	bt, err := m.MakeBatch(caption.KeyFor(exs, 1), exs)
	if err != nil {
		t.Fatal(err)
	}
	if err := bt.Share(total - 1); err == nil {
		t.Error("Share of fewer tokens than the batch has: no error")
	}
}
