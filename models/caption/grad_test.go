package caption

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// TestModelGradients checks the whole training graph's gradients in
// float64 against central finite differences of its loss, for a sample of
// entries of every parameter: the wiring of attention, gate, LSTM, deep
// output and penalty, not only each kernel. Hard attention is checked with
// every caption reading the expectation: with sampling, the REINFORCE
// surrogate deliberately leaves out the reward's own gradient.
func TestModelGradients(t *testing.T) {
	vocab, err := NewVocab(append(specials[:], strings.Fields("a dog runs on grass the red ball")...))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		cfg  Config
	}{
		{"soft", Config{LabelSmoothing: 0.1, DoublyStochastic: 2}},
		{"soft without gate", Config{NoGate: true}},
		{"hard expectation", Config{Attention: Hard, Hard: HardConfig{ExpectationMix: 1, Entropy: 0.3}}},
		{"adaptive", Config{Attention: Adaptive, NoGate: true, DoublyStochastic: 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Regions, cfg.FeatureDim, cfg.Embed, cfg.Hidden, cfg.AttentionDim = 4, 5, 6, 7, 5
			cfg.Vocab = vocab.Size()
			cfg = cfg.Defaults()
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			m, err := build(cfg, vocab, 1, tensor.Float64)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(2, 3))
			for _, p := range m.Params.All() { // no zero biases: every path carries gradient
				for i, v := range p.Value.Data().([]float64) {
					p.Value.Data().([]float64)[i] = v + 0.3*(2*rng.Float64()-1)
				}
			}
			exs := []Example{
				{Features: features(rng, 4, 5), Tokens: []int{4, 5, 6}},
				{Features: features(rng, 4, 5), Tokens: []int{7}},
				{Features: features(rng, 4, 5), Tokens: []int{8, 3, 9, 10}},
			}
			key := KeyFor(exs, 1)
			bt, err := m.MakeBatch(key, exs)
			if err != nil {
				t.Fatal(err)
			}
			tr := NewTrainer(m, 4)
			buckets := models.NewBuckets(m.Params, tr.BuildLoss)
			defer buckets.Close()
			gr, err := buckets.Get(key)
			if err != nil {
				t.Fatal(err)
			}
			loss := func() float64 {
				l, err := tr.Run(gr, bt)
				if err != nil {
					t.Fatal(err)
				}
				return l.Total
			}
			m.Params.ZeroGrads()
			loss()
			grads := map[string][]float64{} // before the runs below add theirs
			for _, p := range m.Params.All() {
				grads[p.Name] = append([]float64(nil), p.Grad.Data().([]float64)...)
			}
			const h = 1e-6
			worst := 0.0
			for _, p := range m.Params.All() {
				grad := grads[p.Name]
				vals := p.Value.Data().([]float64)
				for n := 0; n < min(6, len(vals)); n++ {
					i := rng.IntN(len(vals))
					orig := vals[i]
					vals[i] = orig + h
					lp := loss()
					vals[i] = orig - h
					lm := loss()
					vals[i] = orig
					num := (lp - lm) / (2 * h)
					rel := math.Abs(grad[i]-num) / math.Max(math.Abs(grad[i])+math.Abs(num), 1e-7)
					worst = math.Max(worst, rel)
					if rel > 1e-4 {
						t.Errorf("∂L/∂%s[%d]: graph %.9g, numeric %.9g (relative error %.2g)", p.Name, i, grad[i], num, rel)
					}
				}
			}
			t.Logf("worst relative error %.2g over %d parameters", worst, len(m.Params.All()))
		})
	}
}

func features(rng *rand.Rand, L, D int) []float32 {
	f := make([]float32, L*D)
	for i := range f {
		f[i] = float32(2 * rng.Float64())
	}
	return f
}
