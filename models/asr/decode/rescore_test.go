package decode

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
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
		o := DefaultOptions()
		o.CharBonus = bonus
		r, err := rescore(m, ws, e, o, cands)
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
		want, wantT, err := m.PhoneLogProbs(&asr.Workspace{}, feats, frames)
		if err != nil {
			t.Fatal(err)
		}
		if e.PhoneT != wantT || !slices.Equal(e.PhoneLogProbs[:wantT*asr.PhoneSetSize], want[:wantT*asr.PhoneSetSize]) {
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
			o := DefaultOptions()
			o.PhoneWeight = 0
			base, err := rescore(m, ws, e, o, [][]int{toks})
			if err != nil {
				t.Fatal(err)
			}
			o.PhoneWeight, o.PhoneOOVPenalty, o.PhoneDict = 0.5, 3, dict
			with, err := rescore(m, ws, e, o, [][]int{toks})
			if err != nil {
				t.Fatal(err)
			}
			words, unknown := phoneWords(dict, nil, text)
			l := &phoneLattice{}
			l.build(words)
			lp, _ := phoneCTCScore(e.PhoneLogProbs, e.PhoneT, asr.PhoneSetSize, l, nil)
			if d := with.Score - base.Score - 0.5*(lp-3*float64(unknown)); math.Abs(d) > 1e-9 {
				t.Errorf("layer %d %q: the phone term moved the score %g off", layer, text, d)
			}
		}
	}
}
