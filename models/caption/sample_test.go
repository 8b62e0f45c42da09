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

// sampleN encodes features on n rows and samples one caption per row.
func sampleN(t *testing.T, m *caption.Model, features []float32, n int, seed uint64, opts *caption.SearchOptions) []caption.Sampled {
	t.Helper()
	e, err := m.Encode([][]float32{features}, n)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Sample(nil, e, rand.New(rand.NewPCG(seed, 0)), opts)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSampleDeterministic(t *testing.T) {
	m := mustNew(t, tinyConfig(caption.Soft), 3)
	rng := rand.New(rand.NewPCG(1, 2))
	f := randomFeatures(rng, m.Config.Regions, m.Config.FeatureDim)
	opts := &caption.SearchOptions{LengthPenalty: 1, MaxLength: 6}
	a := sampleN(t, m, f, 8, 7, opts)
	b := sampleN(t, m, f, 8, 7, opts)
	c := sampleN(t, m, f, 8, 8, opts)
	same := func(x, y []caption.Sampled) bool {
		return slices.EqualFunc(x, y, func(p, q caption.Sampled) bool {
			return slices.Equal(p.Tokens, q.Tokens) && p.LogProb == q.LogProb && p.Finished == q.Finished
		})
	}
	if !same(a, b) {
		t.Errorf("seed 7 twice gave different captions:\n%v\n%v", a, b)
	}
	if same(a, c) {
		t.Errorf("seeds 7 and 8 gave the same 8 captions: %v", a)
	}
}

// TestSampleFirstWord checks the first word's empirical distribution over
// 4,000 draws against the first step's softmax renormalized over the
// allowed words, by Pearson's χ² (15 degrees of freedom: 16 allowed
// tokens; the 0.1 % critical value is 37.7).
func TestSampleFirstWord(t *testing.T) {
	m := mustNew(t, tinyConfig(caption.Soft), 5)
	rng := rand.New(rand.NewPCG(3, 4))
	f := randomFeatures(rng, m.Config.Regions, m.Config.FeatureDim)
	// Sharpen the output layer so that the distribution is far from uniform.
	out, _ := m.Params.Get("out.o.w")
	for i := range out.F32() {
		out.F32()[i] *= 8
	}
	const n = 4000
	e, err := m.Encode([][]float32{f}, 1)
	if err != nil {
		t.Fatal(err)
	}
	logp, err := m.Step(&caption.Workspace{}, &caption.State{}, m.Start(e), e, []int{caption.Start})
	if err != nil {
		t.Fatal(err)
	}
	V := m.Config.Vocab
	want := make([]float64, V)
	var z float64
	for v := caption.End; v < V; v++ {
		if v != caption.Unk {
			want[v] = math.Exp(float64(logp[v]))
			z += want[v]
		}
	}
	counts := make([]float64, V)
	for _, s := range sampleN(t, m, f, n, 11, &caption.SearchOptions{LengthPenalty: 1, MaxLength: 1, NoUnk: true}) {
		y := caption.End
		if len(s.Tokens) > 0 {
			y = s.Tokens[0]
		}
		counts[y]++
	}
	var chi2, pmax float64
	for v := range V {
		if want[v] == 0 {
			if counts[v] > 0 {
				t.Errorf("token %d (%s) drawn %v times; it is not allowed", v, m.Vocab.List()[v], counts[v])
			}
			continue
		}
		p := want[v] / z
		pmax = max(pmax, p)
		d := counts[v] - n*p
		chi2 += d * d / (n * p)
	}
	if pmax < 0.2 {
		t.Errorf("the likeliest first word has p = %.3f; the test wants a peaked distribution", pmax)
	}
	if chi2 > 37.7 {
		t.Errorf("χ² = %.1f over 15 degrees of freedom; counts %v, want proportional to %v", chi2, counts, want)
	}
}

// TestSampleCaptions checks the captions' form on a random model (no
// special token, Finished exactly when shorter than MaxLength) and the
// log-probabilities on a bigram model whose only captions are "a dog"
// (0.35), "a dog runs" (0.35) and "the cat" (0.3).
func TestSampleCaptions(t *testing.T) {
	m := mustNew(t, tinyConfig(caption.Soft), 9)
	rng := rand.New(rand.NewPCG(5, 6))
	f := randomFeatures(rng, m.Config.Regions, m.Config.FeatureDim)
	const maxLen = 4
	finished := 0
	for i, s := range sampleN(t, m, f, 200, 1, &caption.SearchOptions{LengthPenalty: 1, MaxLength: maxLen, NoUnk: true}) {
		for _, y := range s.Tokens {
			if y <= caption.Unk || y >= m.Config.Vocab {
				t.Errorf("caption %d %v holds token %d", i, s.Tokens, y)
			}
		}
		if len(s.Tokens) > maxLen || !s.Finished && len(s.Tokens) != maxLen {
			t.Errorf("caption %d: %d words, finished %v; want ≤ %d words, and %d if unfinished", i, len(s.Tokens), s.Finished, maxLen, maxLen)
		}
		if s.Finished {
			finished++
		}
	}
	if finished == 0 {
		t.Error("no sampled caption ended; the test wants both kinds")
	}

	b := bigramModel(t, map[string]map[string]float64{
		"<start>": {"a": 0.7, "the": 0.3},
		"a":       {"dog": 1},
		"the":     {"cat": 1},
		"dog":     {"<end>": 0.5, "runs": 0.5},
		"runs":    {"<end>": 1},
		"cat":     {"<end>": 1},
	})
	want := map[string]float64{"a dog": math.Log(0.35), "a dog runs": math.Log(0.35), "the cat": math.Log(0.3)}
	zero := make([]float32, b.Config.Regions*b.Config.FeatureDim)
	seen := map[string]int{}
	for _, s := range sampleN(t, b, zero, 60, 2, nil) {
		words := strings.Join(b.Vocab.Words(s.Tokens), " ")
		lp, ok := want[words]
		if !s.Finished || !ok || math.Abs(s.LogProb-lp) > 1e-4 {
			t.Errorf("sampled %q (finished %v) with log p %.5f; want a finished caption of the bigram model", words, s.Finished, s.LogProb)
		}
		seen[words]++
	}
	if len(seen) != len(want) {
		t.Errorf("60 draws gave %v; want each of %d captions", seen, len(want))
	}
}

func TestSampleErrors(t *testing.T) {
	m := mustNew(t, tinyConfig(caption.Soft), 1)
	e, err := m.Encode([][]float32{make([]float32, m.Config.Regions*m.Config.FeatureDim)}, 2)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for _, tc := range []struct {
		name string
		e    *caption.Encoded
		rng  *rand.Rand
		opts *caption.SearchOptions
	}{
		{"no images", nil, rng, nil},
		{"no rng", e, nil, nil},
		{"max length", e, rng, &caption.SearchOptions{LengthPenalty: 1, MaxLength: -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := m.Sample(nil, tc.e, tc.rng, tc.opts); !errors.Is(err, caption.ErrInput) {
				t.Errorf("err %v, want ErrInput", err)
			}
		})
	}
}
