package asr_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models/asr"
)

// TestForceBatchMatchesAlign forces transcripts of different lengths,
// sharing prefixes ("go d…", "c…", one twice), through the speller
// together and checks each against Align alone.
func TestForceBatchMatchesAlign(t *testing.T) {
	m, err := asr.New(tinyConfig(0.3), nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 5))
	feats := make([]float32, 40*m.Config.MelBins)
	for i := range feats {
		feats[i] = float32(rng.NormFloat64())
	}
	ws := &asr.Workspace{}
	e, err := m.Encode(ws, feats, 40)
	if err != nil {
		t.Fatal(err)
	}
	var hyps [][]int
	for _, s := range []string{"go dog", "", "a", "cat sat on it", "go dig", "go", "cat", "go dog", "go do"} {
		toks, err := m.Vocab.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		hyps = append(hyps, toks)
	}
	got, err := m.ForceBatch(ws, e, hyps)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hyps {
		want, err := m.Align(&asr.Workspace{}, e, h)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(float64(got[i].EndLogProb - want.EndLogProb)); d > 1e-5 {
			t.Errorf("hypothesis %d: end log-prob differs by %g", i, d)
		}
		for j := range h {
			if d := math.Abs(float64(got[i].LogProbs[j] - want.LogProbs[j])); d > 1e-5 {
				t.Errorf("hypothesis %d token %d: log-prob differs by %g", i, j, d)
			}
			for f := range want.Alignment[j] {
				if d := math.Abs(float64(got[i].Alignment[j][f] - want.Alignment[j][f])); d > 1e-5 {
					t.Fatalf("hypothesis %d token %d frame %d: attention differs by %g", i, j, f, d)
				}
			}
		}
	}
}

// BenchmarkForceBatch forces 36 transcripts of 60 characters through the
// default-sized speller over 150 encoder frames, as joint rescoring does
// with the candidates of its three beams of 12: "beam-like" ones differ
// in their last 1–6 characters and share the rest (one decoder row per
// distinct prefix, see prefixRows), "disjoint" ones differ in their first
// (every step runs 36 rows, the cost of forcing each on its own row).
func BenchmarkForceBatch(b *testing.B) {
	m, err := asr.New(asr.DefaultConfig(), nil, 1)
	if err != nil {
		b.Fatal(err)
	}
	const T = 150 // encoder frames: about 6 s of speech
	rng := rand.New(rand.NewPCG(1, 2))
	feats := make([]float32, T*m.Config.Reduction()*m.Config.MelBins)
	for i := range feats {
		feats[i] = float32(rng.NormFloat64())
	}
	ws := &asr.Workspace{}
	e, err := m.Encode(ws, feats, len(feats)/m.Config.MelBins)
	if err != nil {
		b.Fatal(err)
	}
	base, err := m.Vocab.Encode("the quick brown fox jumps over the lazy dog and runs far away")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(h []int, i int)
	}{
		{"beam-like", func(h []int, i int) { h[len(h)-1-i%6] = h[(i*7)%len(h)] }},
		{"disjoint", func(h []int, i int) { h[0] = h[i%len(h)]; h[1] = h[(i*7)%len(h)] }},
	} {
		b.Run(c.name, func(b *testing.B) {
			hyps := make([][]int, 36)
			for i := range hyps {
				hyps[i] = slices.Clone(base)
				c.edit(hyps[i], i)
			}
			b.ReportAllocs()
			for range b.N {
				if _, err := m.ForceBatch(ws, e, hyps); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestSpellerPackForInference forces transcripts through a speller with
// its LSTM packed (Speller.PackForInference) and without: the same
// log-probabilities within 1e-5.
func TestSpellerPackForInference(t *testing.T) {
	m, err := asr.New(tinyConfig(0.3), nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(6, 7))
	feats := make([]float32, 40*m.Config.MelBins)
	for i := range feats {
		feats[i] = float32(rng.NormFloat64())
	}
	e, err := m.Encode(&asr.Workspace{}, feats, 40)
	if err != nil {
		t.Fatal(err)
	}
	var hyps [][]int
	for _, s := range []string{"go dog", "go dig", "a cat", "at"} {
		toks, err := m.Vocab.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		hyps = append(hyps, toks)
	}
	want, err := m.ForceBatch(&asr.Workspace{}, e, hyps)
	if err != nil {
		t.Fatal(err)
	}
	m.Speller.PackForInference()
	got, err := m.ForceBatch(&asr.Workspace{}, e, hyps)
	if err != nil {
		t.Fatal(err)
	}
	for i := range hyps {
		for j, lp := range want[i].LogProbs {
			if d := math.Abs(float64(got[i].LogProbs[j] - lp)); d > 1e-5 {
				t.Errorf("transcript %d token %d: log-prob %g packed, %g not", i, j, got[i].LogProbs[j], lp)
			}
		}
	}
}
