package asr

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// tinyEncoded returns a tiny seeded model (with a CTC head), a workspace
// and its encoding of frames random feature frames drawn with seed.
func tinyEncoded(t *testing.T, seed uint64, frames int) (*Model, *Workspace, *Encoded) {
	return tinyEncodedPhones(t, seed, frames, 0, 0)
}

// tinyEncodedPhones is tinyEncoded with a phone CTC head of weight
// phoneWeight (0: none) on listener layer phoneLayer.
func tinyEncodedPhones(t *testing.T, seed uint64, frames int, phoneWeight float64, phoneLayer int) (*Model, *Workspace, *Encoded) {
	t.Helper()
	m, err := New(Config{MelBins: 8, Stack: 2, ListenerHidden: 16, ListenerLayers: 2, Embed: 8,
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
	ws := &Workspace{}
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
	got, err := m.forceBatch(ws, e, hyps)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range hyps {
		want, err := m.Align(&Workspace{}, e, h)
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

// TestRescoreCharBonus: the bonus per character adds γ·|y| to a
// transcript's joint score, so a large bonus picks the longest candidate
// and a large negative one the shortest.
func TestRescoreCharBonus(t *testing.T) {
	m, ws, e := tinyEncoded(t, 6, 60)
	var cands [][]int
	for _, s := range []string{"go", "a cat sat", "dog"} {
		toks, err := m.Vocab.Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		cands = append(cands, toks)
	}
	score := func(bonus float64, cands [][]int) *Result {
		o := DefaultSearchOptions()
		o.CharBonus = bonus
		r, err := m.rescore(ws, e, o, cands)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, c := range []struct {
		bonus float64
		want  string
	}{{100, "a cat sat"}, {-100, "go"}} {
		if got := score(c.bonus, cands).Text; got != c.want {
			t.Errorf("char bonus %g picked %q, want %q", c.bonus, got, c.want)
		}
	}
	for _, cand := range cands {
		base, plus := score(0, [][]int{cand}), score(0.7, [][]int{cand})
		if d := plus.Score - base.Score - 0.7*float64(len(cand)); math.Abs(d) > 1e-9 {
			t.Errorf("%q: bonus 0.7 moved the score by %g more than 0.7 per character", base.Text, d)
		}
	}
}

// TestRescorePhoneTerm: with a phone head, Encode's phone log-probabilities
// are PhoneLogProbs' (the listener tapped, not run twice), and the phone
// weight λ moves a transcript's joint score by exactly λ times its phone
// CTC score less the penalty per word without a pronunciation.
func TestRescorePhoneTerm(t *testing.T) {
	for _, layer := range []int{0, 1} {
		const seed, frames = 11, 50
		m, ws, e := tinyEncodedPhones(t, seed, frames, 0.2, layer)
		rng := rand.New(rand.NewPCG(seed, seed+1)) // tinyEncoded's features again
		feats := make([]float32, frames*8)
		for i := range feats {
			feats[i] = float32(rng.NormFloat64())
		}
		want, wantT, err := m.PhoneLogProbs(&Workspace{}, feats, frames)
		if err != nil {
			t.Fatal(err)
		}
		if e.PhoneT != wantT || !slices.Equal(e.PhoneLogProbs[:wantT*PhoneSetSize], want[:wantT*PhoneSetSize]) {
			t.Fatalf("layer %d: Encode's phone log-probs (%d frames) differ from PhoneLogProbs' (%d)", layer, e.PhoneT, wantT)
		}
		dict, err := ParsePhoneDict("test", strings.NewReader("a AH\ncat K AE T\n"))
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range []string{"a cat", "a dog", ""} {
			toks, err := m.Vocab.Encode(text)
			if err != nil {
				t.Fatal(err)
			}
			o := DefaultSearchOptions()
			o.PhoneWeight = 0
			base, err := m.rescore(ws, e, o, [][]int{toks})
			if err != nil {
				t.Fatal(err)
			}
			o.PhoneWeight, o.PhoneOOVPenalty, o.PhoneDict = 0.5, 3, dict
			with, err := m.rescore(ws, e, o, [][]int{toks})
			if err != nil {
				t.Fatal(err)
			}
			words, unknown := phoneWords(dict, nil, text)
			l := &phoneLattice{}
			l.build(words)
			lp, _ := phoneCTCScore(e.PhoneLogProbs, e.PhoneT, PhoneSetSize, l, nil)
			if d := with.Score - base.Score - 0.5*(lp-3*float64(unknown)); math.Abs(d) > 1e-9 {
				t.Errorf("layer %d %q: the phone term moved the score %g off", layer, text, d)
			}
		}
	}
}
