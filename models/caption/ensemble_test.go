package caption_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/caption"
)

// TestEnsembleOfOne checks that an ensemble of one model searches exactly
// as the model does, with every option of the default search.
func TestEnsembleOfOne(t *testing.T) {
	for _, attention := range []string{caption.Soft, caption.Adaptive} {
		cfg := tinyConfig(attention)
		cfg.NoGate = attention == caption.Adaptive // the sentinel does the gate's work
		m := mustNew(t, cfg, 5)
		en, err := caption.NewEnsemble(m)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(5, 7))
		for i := range 4 {
			img := randomFeatures(rng, m.Config.Regions, m.Config.FeatureDim)
			for _, k := range []int{1, 3} {
				want, err := m.Beam(nil, img, k, nil)
				if err != nil {
					t.Fatal(err)
				}
				got, err := en.Beam(nil, img, k, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(got) != len(want) {
					t.Fatalf("%s image %d beam %d: %d hypotheses, the model alone %d", attention, i, k, len(got), len(want))
				}
				for j := range want {
					g, w := got[j], want[j]
					if !slices.Equal(g.Tokens, w.Tokens) || math.Abs(g.LogProb-w.LogProb) > 1e-5 ||
						!slices.EqualFunc(g.Attention, w.Attention, slices.Equal) || !slices.Equal(g.Beta, w.Beta) || !slices.Equal(g.Sentinel, w.Sentinel) {
						t.Errorf("%s image %d beam %d hypothesis %d: ensemble %q (%v), model %q (%v)", attention, i, k, j, g.Words, g.LogProb, w.Words, w.LogProb)
					}
				}
			}
		}
	}
}

// TestEnsembleMixes checks each word of a two-model ensemble's greedy
// caption against the members run by hand on its prefix: the word is the
// likeliest under the mean of their distributions, and its log-probability
// is that mean's.
func TestEnsembleMixes(t *testing.T) {
	a, b := mustNew(t, tinyConfig(caption.Soft), 5), mustNew(t, tinyConfig(caption.Soft), 6)
	en, err := caption.NewEnsemble(a, b)
	if err != nil {
		t.Fatal(err)
	}
	opts := &caption.SearchOptions{LengthPenalty: 1, MaxLength: 10}
	rng := rand.New(rand.NewPCG(8, 9))
	differs := 0
	for i := range 6 {
		img := randomFeatures(rng, a.Config.Regions, a.Config.FeatureDim)
		hyps, err := en.Greedy(nil, [][]float32{img}, opts)
		if err != nil {
			t.Fatal(err)
		}
		h := hyps[0]
		members := make([][][]float32, 2) // per member, per step: log p (V)
		for mi, m := range []*caption.Model{a, b} {
			members[mi] = stepDistributions(t, m, img, h.Tokens)
			alone, err := m.Greedy(nil, [][]float32{img}, opts)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(alone[0].Tokens, h.Tokens) {
				differs++
			}
		}
		next := append(slices.Clone(h.Tokens), caption.End)
		for step, tok := range next[:len(h.TokenLogProbs)] {
			best, bestP := -1, 0.0
			for v := range a.Config.Vocab {
				if v == caption.Pad || v == caption.Start {
					continue
				}
				p := (math.Exp(float64(members[0][step][v])) + math.Exp(float64(members[1][step][v]))) / 2
				if p > bestP {
					best, bestP = v, p
				}
			}
			if best != tok {
				t.Errorf("image %d step %d: the ensemble said %d, the mean distribution's likeliest is %d", i, step, tok, best)
			}
			p := (math.Exp(float64(members[0][step][tok])) + math.Exp(float64(members[1][step][tok]))) / 2
			if got := float64(h.TokenLogProbs[step]); math.Abs(got-math.Log(p)) > 1e-5 {
				t.Errorf("image %d step %d: log-probability %v, the mean distribution's %v", i, step, got, math.Log(p))
			}
		}
	}
	if differs == 0 {
		t.Error("every member alone said what the ensemble said: the test shows no mixing")
	}
}

// stepDistributions returns the model's log p(· | y_<t, a) (V) at each step
// of tokens and then End's step.
func stepDistributions(t *testing.T, m *caption.Model, img []float32, tokens []int) [][]float32 {
	t.Helper()
	e, err := m.Encode([][]float32{img}, 1)
	if err != nil {
		t.Fatal(err)
	}
	cur, next := m.Start(e), &caption.State{}
	var ws caption.Workspace
	var out [][]float32
	prev := caption.Start
	for _, tok := range append(slices.Clone(tokens), caption.End) {
		lp, err := m.Step(&ws, next, cur, e, []int{prev})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, slices.Clone(lp))
		cur, next = next, cur
		prev = tok
	}
	return out
}

func TestNewEnsembleErrors(t *testing.T) {
	a := mustNew(t, tinyConfig(caption.Soft), 5)
	wide := tinyConfig(caption.Soft)
	wide.FeatureDim = 9
	other, err := caption.NewVocab(append([]string{"<pad>", "<start>", "<end>", "<unk>"}, strings.Fields("a b c d e f g h i j k l m n o")...))
	if err != nil {
		t.Fatal(err)
	}
	otherVocab, err := caption.New(tinyConfig(caption.Soft), other, 5)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		models []*caption.Model
		is     error
		want   string
	}{
		{"none", nil, caption.ErrInput, "at least one model"},
		{"another grid", []*caption.Model{a, mustNew(t, wide, 5)}, caption.ErrInput, "model 2 reads 6 regions of 9 features, model 1 6 of 8"},
		{"another vocabulary", []*caption.Model{a, otherVocab}, caption.ErrVocab, "model 2's vocabulary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := caption.NewEnsemble(tc.models...)
			if !errors.Is(err, tc.is) || err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %v with %q", err, tc.is, tc.want)
			}
		})
	}
}
