package asr_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models/asr"
)

// TestForceBatchMatchesAlign forces transcripts of different lengths
// through the speller together and checks each against Align alone.
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
	for _, s := range []string{"go dog", "", "a", "cat sat on it"} {
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
