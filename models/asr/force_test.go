package asr_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models/asr"
)

// tinyEncoded returns a tiny seeded model (with a CTC head), a workspace
// and its encoding of frames random feature frames drawn with seed.
func tinyEncoded(t *testing.T, seed uint64, frames int) (*asr.Model, *asr.Workspace, *asr.Encoded) {
	return tinyEncodedPhones(t, seed, frames, 0, 0)
}

// tinyEncodedPhones is tinyEncoded with a phone CTC head of weight
// phoneWeight (0: none) on listener layer phoneLayer.
func tinyEncodedPhones(t *testing.T, seed uint64, frames int, phoneWeight float64, phoneLayer int) (*asr.Model, *asr.Workspace, *asr.Encoded) {
	t.Helper()
	m, err := asr.New(asr.Config{MelBins: 8, Stack: 2, ListenerHidden: 16, ListenerLayers: 2, Embed: 8,
		SpellerHidden: 32, AttentionDim: 16, LocationFilters: 4, LocationWidth: 5,
		CTCWeight: 0.3, PhoneCTCWeight: phoneWeight, PhoneCTCLayer: phoneLayer}, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, seed+1))
	feats := make([]float32, frames*8)
	for i := range feats {
		feats[i] = float32(rng.NormFloat64())
	}
	ws := &asr.Workspace{}
	e, err := m.Encode(ws, feats, frames)
	if err != nil {
		t.Fatal(err)
	}
	return m, ws, e
}

// TestForceBatchMatchesAlign forces transcripts of different lengths
// through the speller together and checks each against Align alone.
func TestForceBatchMatchesAlign(t *testing.T) {
	m, ws, e := tinyEncoded(t, 4, 40)
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
