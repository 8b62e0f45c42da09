package caption_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/models/safetensors"
)

// TestGraphEagerParity checks that the training graph's loss (one forward
// pass, no dropout) equals the eager teacher-forced loss within 1e-5, for
// soft attention with and without the gate, label smoothing and the
// penalty, for adaptive attention, and for hard attention when every
// caption reads the expectation.
func TestGraphEagerParity(t *testing.T) {
	for _, tc := range []struct {
		name   string
		modify func(*caption.Config)
	}{
		{"soft", func(*caption.Config) {}},
		{"soft without gate", func(c *caption.Config) { c.NoGate = true }},
		{"soft with smoothing, λ=3", func(c *caption.Config) { c.LabelSmoothing = 0.1; c.DoublyStochastic = 3 }},
		{"soft without penalty", func(c *caption.Config) { c.DoublyStochastic = 0 }},
		{"hard expectation", func(c *caption.Config) {
			c.Attention = caption.Hard
			c.Hard = caption.HardConfig{ExpectationMix: 1, Entropy: 0.05}
		}},
		{"adaptive", func(c *caption.Config) { c.Attention = caption.Adaptive; c.NoGate = true }},
		{"adaptive with smoothing, λ=3", func(c *caption.Config) {
			c.Attention, c.NoGate, c.LabelSmoothing, c.DoublyStochastic = caption.Adaptive, true, 0.1, 3
		}},
		{"hard expectation without gate", func(c *caption.Config) {
			c.Attention = caption.Hard
			c.NoGate = true
			c.Hard = caption.HardConfig{ExpectationMix: 1}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tinyConfig(caption.Soft)
			tc.modify(&cfg)
			m := mustNew(t, cfg, 3)
			rng := rand.New(rand.NewPCG(4, 5))
			exs := randomExamples(rng, 5, cfg.Regions, cfg.FeatureDim, 6, m.Vocab.Size())
			key := caption.KeyFor(exs, 4) // padded past the longest caption
			bt, err := m.MakeBatch(key, exs)
			if err != nil {
				t.Fatal(err)
			}
			tr := caption.NewTrainer(m, 6)
			buckets := models.NewBuckets(m.Params, tr.BuildLoss)
			defer buckets.Close()
			gr, err := buckets.Get(key)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tr.Run(gr, bt)
			if err != nil {
				t.Fatal(err)
			}
			want, err := m.Loss(&caption.Workspace{}, bt)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("graph %+v, eager %+v", got, want)
			for _, p := range []struct {
				name      string
				got, want float64
			}{
				{"total", got.Total, want.Total},
				{"cross-entropy", got.CrossEntropy, want.CrossEntropy},
				{"penalty", got.Penalty, want.Penalty},
				{"reinforce", got.Reinforce, 0},
			} {
				if d := math.Abs(p.got - p.want); d > 1e-5 || math.IsNaN(d) {
					t.Errorf("%s: graph %.8g, eager %.8g (|Δ| = %.2g)", p.name, p.got, p.want, d)
				}
			}
			if cfg.DoublyStochastic != 0 && want.Penalty == 0 {
				t.Errorf("penalty is 0; the test does not exercise it")
			}
		})
	}
}

// TestPackForInference checks that the default model captions random
// grids the same with its LSTM packed (PackForInference) as without: the
// same words, log-probabilities within 1e-4, for every hypothesis of
// beams narrow enough to multiply each context and wide enough to read
// the image's context products.
func TestPackForInference(t *testing.T) {
	f, err := safetensors.ReadFile("default.safetensors")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := caption.Load(f)
	if err != nil {
		t.Fatal(err)
	}
	packed, err := caption.Default()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for i := range 2 {
		feats := randomFeatures(rng, plain.Config.Regions, plain.Config.FeatureDim)
		for _, k := range []int{1, 3, 5, 10} { // 5 and 10 read context products
			want, err := plain.Beam(nil, feats, k, nil)
			if err != nil {
				t.Fatal(err)
			}
			got, err := packed.Beam(nil, feats, k, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("grid %d, beam %d: %d hypotheses packed, %d plain", i, k, len(got), len(want))
			}
			for j := range want {
				if !slices.Equal(got[j].Tokens, want[j].Tokens) || math.Abs(got[j].LogProb-want[j].LogProb) > 1e-4 {
					t.Errorf("grid %d, beam %d, hypothesis %d: packed %v (%.6f), plain %v (%.6f)", i, k, j, got[j].Words, got[j].LogProb, want[j].Words, want[j].LogProb)
				}
			}
		}
	}
}
