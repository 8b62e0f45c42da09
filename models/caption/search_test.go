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

// bigramModel returns a model whose next word depends only on the previous
// one, with log p(next | prev) = log probs[prev][next] (absent pairs get
// e^−30): every weight is zero but a one-hot embedding, which the deep
// output's tanh passes on (tanh 20 ≈ 1), and the output layer, which holds
// the log-probabilities.
func bigramModel(t *testing.T, probs map[string]map[string]float64) *caption.Model {
	t.Helper()
	v := toyVocab(t)
	V := v.Size()
	cfg := tinyConfig(caption.Soft)
	cfg.Embed = V
	m := mustNew(t, cfg, 1)
	for _, p := range m.Params.All() {
		clear(p.F32())
	}
	table, _ := m.Params.Get("embed.table")
	out, _ := m.Params.Get("out.o.w")
	id := func(w string) int {
		for i, s := range v.List() {
			if s == w {
				return i
			}
		}
		t.Fatalf("no word %q", w)
		return 0
	}
	for i := 0; i < V; i++ {
		table.F32()[i*V+i] = 20
		for j := 0; j < V; j++ {
			out.F32()[i*V+j] = -30
		}
	}
	for prev, next := range probs {
		for w, p := range next {
			out.F32()[id(prev)*V+id(w)] = float32(math.Log(p) / math.Tanh(20))
		}
	}
	return m
}

// TestBeamLengthNormalization builds a case where length normalization
// changes the ranking: "dog" has probability 0.6, "cat runs on grass" 0.4.
// By log-probability the short caption wins; per token the long one does.
func TestBeamLengthNormalization(t *testing.T) {
	m := bigramModel(t, map[string]map[string]float64{
		"<start>": {"dog": 0.6, "cat": 0.4},
		"dog":     {"<end>": 1},
		"cat":     {"runs": 1},
		"runs":    {"on": 1},
		"on":      {"grass": 1},
		"grass":   {"<end>": 1},
	})
	features := make([]float32, m.Config.Regions*m.Config.FeatureDim)
	for _, tc := range []struct {
		name    string
		opts    *caption.SearchOptions
		k       int
		ranking []string
	}{
		{"normalized", nil, 2, []string{"cat runs on grass", "dog"}},
		{"normalized, exhaustive", &caption.SearchOptions{LengthPenalty: 1, Exhaustive: true}, 2, []string{"cat runs on grass", "dog"}},
		{"log-probability", &caption.SearchOptions{LengthPenalty: 0}, 2, []string{"dog", "cat runs on grass"}},
		{"greedy", nil, 1, []string{"dog"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hyps, err := m.Beam(nil, features, tc.k, tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, h := range hyps {
				got = append(got, strings.Join(h.Words, " "))
			}
			if !slices.Equal(got, tc.ranking) {
				t.Errorf("ranking %q, want %q", got, tc.ranking)
			}
			for _, h := range hyps {
				want := math.Log(0.6)
				if h.Words[0] == "cat" {
					want = math.Log(0.4)
				}
				if math.Abs(h.LogProb-want) > 1e-4 {
					t.Errorf("%q: log-probability %.6f, want %.6f", h.Words, h.LogProb, want)
				}
			}
		})
	}
}

// checkHypotheses checks the invariants of a search result.
func checkHypotheses(t *testing.T, m *caption.Model, hyps []caption.Hypothesis, k int, o caption.SearchOptions) {
	t.Helper()
	if len(hyps) == 0 || len(hyps) > k {
		t.Fatalf("%d hypotheses for beam %d", len(hyps), k)
	}
	alpha := o.LengthPenalty
	maxLen := o.MaxLength
	if maxLen == 0 {
		maxLen = 30
	}
	for i, h := range hyps {
		if i > 0 {
			prev := hyps[i-1]
			if prev.Finished == h.Finished && h.Score > prev.Score || !prev.Finished && h.Finished {
				t.Errorf("hypothesis %d (score %v, finished %v) ranks after %d (score %v, finished %v)", i, h.Score, h.Finished, i-1, prev.Score, prev.Finished)
			}
		}
		for _, tok := range h.Tokens {
			if tok == caption.End || tok == caption.Start || tok == caption.Pad || tok < 0 || tok >= m.Vocab.Size() {
				t.Errorf("hypothesis %d holds token %d: %v", i, tok, h.Tokens)
			}
		}
		if len(h.Words) != len(h.Tokens) || len(h.Attention) != len(h.Tokens) || len(h.Beta) != len(h.Tokens) {
			t.Errorf("hypothesis %d: %d tokens, %d words, %d attention rows, %d gates", i, len(h.Tokens), len(h.Words), len(h.Attention), len(h.Beta))
		}
		if len(h.Tokens) > maxLen || !h.Finished && len(h.Tokens) != maxLen {
			t.Errorf("hypothesis %d: %d tokens (finished %v), max length %d", i, len(h.Tokens), h.Finished, maxLen)
		}
		n := len(h.Tokens)
		if h.Finished {
			n++
		}
		if want := h.LogProb / math.Pow(float64(n), alpha); math.Abs(h.Score-want) > 1e-9 {
			t.Errorf("hypothesis %d: score %v, want LogProb/n^α = %v", i, h.Score, want)
		}
		for j, row := range h.Attention {
			var sum float64
			for _, w := range row {
				sum += float64(w)
			}
			if len(row) != m.Config.Regions || math.Abs(sum-1) > 1e-4 {
				t.Errorf("hypothesis %d token %d: %d weights summing to %v", i, j, len(row), sum)
			}
		}
		for j, b := range h.Beta {
			if !(b > 0 && b <= 1) {
				t.Errorf("hypothesis %d token %d: β = %v", i, j, b)
			}
		}
	}
}

// teacherForced returns log p(tokens [, End] | image) by stepping the
// decoder through the tokens.
func teacherForced(t *testing.T, m *caption.Model, features []float32, tokens []int, finished bool) float64 {
	t.Helper()
	e, err := m.Encode([][]float32{features}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var ws caption.Workspace
	cur, next := m.Start(e), &caption.State{}
	prev := caption.Start
	targets := slices.Clone(tokens)
	if finished {
		targets = append(targets, caption.End)
	}
	var sum float64
	for _, y := range targets {
		logp, err := m.Step(&ws, next, cur, e, []int{prev})
		if err != nil {
			t.Fatal(err)
		}
		sum += float64(logp[y])
		prev = y
		cur, next = next, cur
	}
	return sum
}

// TestBeamInvariants searches an untrained model (long, varied captions)
// and the trained toy model with several widths and options, and checks
// every result: ranking, tokens, lengths, attention rows, and that each
// hypothesis's LogProb is its teacher-forced log-likelihood.
func TestBeamInvariants(t *testing.T) {
	toy, exs := trainedToy(t)
	untrained := mustNew(t, tinyConfig(caption.Soft), 9)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct {
		name string
		m    *caption.Model
		opts caption.SearchOptions
	}{
		{"untrained", untrained, caption.SearchOptions{LengthPenalty: 1, MaxLength: 8}},
		{"untrained, no normalization", untrained, caption.SearchOptions{MaxLength: 6, LengthPenalty: 0}},
		{"untrained, α = 0.7, no unk", untrained, caption.SearchOptions{MaxLength: 7, LengthPenalty: 0.7, NoUnk: true}},
		{"trained", toy, caption.SearchOptions{LengthPenalty: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for img := 0; img < 3; img++ {
				features := exs[img].Features
				if tc.m == untrained {
					features = randomFeatures(rng, tc.m.Config.Regions, tc.m.Config.FeatureDim)
				}
				for _, k := range []int{1, 2, 4, 7} {
					hyps, err := tc.m.Beam(nil, features, k, &tc.opts)
					if err != nil {
						t.Fatal(err)
					}
					checkHypotheses(t, tc.m, hyps, k, tc.opts)
					for i, h := range hyps {
						if tc.opts.NoUnk && slices.Contains(h.Tokens, caption.Unk) {
							t.Errorf("k=%d hypothesis %d holds <unk> with NoUnk", k, i)
						}
						if want := teacherForced(t, tc.m, features, h.Tokens, h.Finished); math.Abs(h.LogProb-want) > 1e-4 {
							t.Errorf("k=%d hypothesis %d %q: LogProb %.6f, teacher-forced %.6f", k, i, h.Words, h.LogProb, want)
						}
					}
				}
			}
		})
	}
}

// TestBeamOneIsGreedy checks that beam search of width 1 finds the greedy
// caption, with the same log-probability, weights and gates, and that
// greedy search gives each image of a batch what it gives it alone.
func TestBeamOneIsGreedy(t *testing.T) {
	m := mustNew(t, tinyConfig(caption.Soft), 5)
	rng := rand.New(rand.NewPCG(5, 6))
	opts := &caption.SearchOptions{LengthPenalty: 1, MaxLength: 12}
	var images [][]float32
	for range 6 {
		images = append(images, randomFeatures(rng, m.Config.Regions, m.Config.FeatureDim))
	}
	batch, err := m.Greedy(nil, images, opts)
	if err != nil {
		t.Fatal(err)
	}
	for i, img := range images {
		alone, err := m.Greedy(nil, [][]float32{img}, opts)
		if err != nil {
			t.Fatal(err)
		}
		beam, err := m.Beam(nil, img, 1, opts)
		if err != nil {
			t.Fatal(err)
		}
		g, b := alone[0], beam[0]
		if !slices.Equal(g.Tokens, b.Tokens) || g.Finished != b.Finished || g.LogProb != b.LogProb ||
			g.Score != b.Score || !slices.Equal(g.Beta, b.Beta) || !slices.EqualFunc(g.Attention, b.Attention, slices.Equal) {
			t.Errorf("image %d: greedy %q (%v, %v), beam 1 %q (%v, %v)", i, g.Words, g.LogProb, g.Finished, b.Words, b.LogProb, b.Finished)
		}
		if !slices.Equal(batch[i].Tokens, g.Tokens) || math.Abs(batch[i].LogProb-g.LogProb) > 1e-5 {
			t.Errorf("image %d: batched greedy %q (%v), alone %q (%v)", i, batch[i].Words, batch[i].LogProb, g.Words, g.LogProb)
		}
	}
}

// TestSearchErrors checks that bad input is an error naming it.
func TestSearchErrors(t *testing.T) {
	m := mustNew(t, tinyConfig(caption.Soft), 5)
	good := make([]float32, m.Config.Regions*m.Config.FeatureDim)
	nan := slices.Clone(good)
	nan[9] = float32(math.NaN())
	for _, tc := range []struct {
		name     string
		features []float32
		k        int
		opts     *caption.SearchOptions
		want     string
	}{
		{"short features", good[1:], 2, nil, "47 feature values, want L·D = 6·8 = 48"},
		{"NaN feature", nan, 2, nil, "feature 9 (region 1, channel 1) is NaN"},
		{"zero beam", good, 0, nil, "beam width 0"},
		{"huge beam", good, 100000, nil, "beam width 100000"},
		{"negative length", good, 2, &caption.SearchOptions{LengthPenalty: 1, MaxLength: -3}, "MaxLength = -3"},
		{"bad penalty", good, 2, &caption.SearchOptions{LengthPenalty: math.NaN()}, "LengthPenalty = NaN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := m.Beam(nil, tc.features, tc.k, tc.opts)
			if err == nil || !errors.Is(err, caption.ErrInput) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Beam: error %v, want ErrInput with %q", err, tc.want)
			}
		})
	}
	if _, err := m.Greedy(nil, nil, nil); !errors.Is(err, caption.ErrInput) {
		t.Errorf("Greedy of no images: error %v, want ErrInput", err)
	}
}

// TestStepAllocations checks that a steady-state eager step allocates
// nothing, for a beam of 3 rows.
func TestStepAllocations(t *testing.T) {
	for _, attention := range []string{caption.Soft, caption.Hard} {
		m := mustNew(t, tinyConfig(attention), 5)
		if attention == caption.Hard {
			m.Config.Hard.Inference = caption.Argmax // the extra copy of the argmax region
		}
		rng := rand.New(rand.NewPCG(7, 8))
		e, err := m.Encode([][]float32{randomFeatures(rng, m.Config.Regions, m.Config.FeatureDim)}, 3)
		if err != nil {
			t.Fatal(err)
		}
		var ws caption.Workspace
		cur, next := m.Start(e), &caption.State{}
		tokens := []int{caption.Start, 5, 6}
		step := func() {
			if _, err := m.Step(&ws, next, cur, e, tokens); err != nil {
				t.Fatal(err)
			}
			cur, next = next, cur
		}
		step()
		step()
		if n := testing.AllocsPerRun(20, step); n != 0 {
			t.Errorf("%s: %v allocations per step, want 0", attention, n)
		}
	}
}
