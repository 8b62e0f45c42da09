package decode

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/lm"
)

// tinyPhoneDict pronounces tinyARPA's words but "x-ray"; "cat" and
// "cats" share a path, "a" is a word of one phone.
const tinyPhoneDict = "a AH\nthe DH AH\ncat K AE T\ncats K AE T S\ndog D AO G\n"

func phoneID(t *testing.T, ph string) int {
	t.Helper()
	if ph == "_" {
		return asr.PhoneBlank
	}
	id, ok := asr.PhoneID(ph)
	if !ok {
		t.Fatalf("no phone %q", ph)
	}
	return id
}

// peaked returns phone log-posteriors (T, asr.PhoneSetSize) with each frame's
// label ("_" for the blank) at probability 0.9 and the rest shared.
func peaked(t *testing.T, labels string) *asr.Encoded {
	t.Helper()
	f := strings.Fields(labels)
	lp := make([]float32, len(f)*asr.PhoneSetSize)
	other := float32(math.Log(0.1 / float64(asr.PhoneSetSize-1)))
	for i, ph := range f {
		row := lp[i*asr.PhoneSetSize : (i+1)*asr.PhoneSetSize]
		for k := range row {
			row[k] = other
		}
		row[phoneID(t, ph)] = float32(math.Log(0.9))
	}
	return &asr.Encoded{PhoneLogProbs: lp, PhoneT: len(f)}
}

func TestPhoneTrie(t *testing.T) {
	w := tinyWordLM(t, nil, nil)
	d, err := ParsePhoneDict("test", strings.NewReader(tinyPhoneDict))
	if err != nil {
		t.Fatal(err)
	}
	tr := w.phoneTrie(d)
	if w.phoneTrie(d) != tr {
		t.Error("the trie is built again for the same dictionary")
	}
	// Follow each pronunciation from the root and find its word there.
	walk := func(phones string) int32 {
		n := int32(0)
		for _, ph := range strings.Fields(phones) {
			id := int32(phoneID(t, ph))
			i, ok := slices.BinarySearch(tr.phone[tr.off[n]:tr.off[n+1]], id)
			if !ok {
				t.Fatalf("%q: no edge %s", phones, ph)
			}
			n = tr.child[tr.off[n]+int32(i)]
		}
		return n
	}
	null := w.Model.Null()
	for _, c := range []struct{ word, phones string }{{"a", "AH"}, {"the", "DH AH"}, {"cat", "K AE T"}, {"cats", "K AE T S"}, {"dog", "D AO G"}} {
		n := walk(c.phones)
		var ends []string
		for _, i := range tr.ends[tr.endOff[n]:tr.endOff[n+1]] {
			ends = append(ends, w.Lexicon.words[i])
		}
		if !slices.Equal(ends, []string{c.word}) {
			t.Errorf("%s ends %v, want [%s]", c.phones, ends, c.word)
		}
		i := slices.Index(w.Lexicon.words, c.word)
		if lp := w.wordScore(null, int32(i)); tr.la[n] < lp {
			t.Errorf("look-ahead at %s %g below the word's unigram %g", c.phones, tr.la[n], lp)
		}
	}
	// "cat" is below "cats"'s prefix: K AE T's look-ahead bounds both.
	if cat, cats := tr.la[walk("K AE T")], tr.la[walk("K AE T S")]; cat < cats {
		t.Errorf("look-ahead of K AE T %g below that of its child %g", cat, cats)
	}
	if got := tr.endOff[len(tr.endOff)-1]; got != 5 {
		t.Errorf("%d word ends, want 5 (x-ray has no pronunciation)", got)
	}
}

func TestPhoneBeamFindsWords(t *testing.T) {
	w := tinyWordLM(t, nil, nil)
	d, err := ParsePhoneDict("test", strings.NewReader(tinyPhoneDict))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		labels string
		want   string // the best transcript
	}{
		{"_ DH DH AH _ K AE AE T _", "the cat"},
		{"DH AH K AE T S S _", "the cats"},
		{"_ D AO G _", "dog"},
		// A phone twice in a row is one phone unless a blank parts them.
		{"AH AH _", "a"},
		{"AH _ AH _", "a a"},
	} {
		o := DefaultOptions()
		o.WordLM, o.PhoneDict, o.WordLMWeight = w, d, 0.1
		got := phoneBeamSearch(peaked(t, c.labels), o, 16)
		if len(got) == 0 {
			t.Errorf("%s: nothing", c.labels)
			continue
		}
		if s := strings.Join(got[0].words, " "); s != c.want {
			t.Errorf("%s: best %q, want %q", c.labels, s, c.want)
		}
		for _, r := range got[1:] {
			if strings.Join(r.words, " ") == c.want {
				t.Errorf("%s: %q twice", c.labels, c.want)
			}
		}
	}
}

// TestPhoneBeamExact checks, with a beam wide enough to keep every
// prefix, that each transcript's CTC term is log p_ctc of its phones
// (phoneCTCScore) and its LM term the word LM's sentence score.
func TestPhoneBeamExact(t *testing.T) {
	w := tinyWordLM(t, nil, nil)
	d, err := ParsePhoneDict("test", strings.NewReader(tinyPhoneDict))
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	const T = 7
	lp := make([]float32, T*asr.PhoneSetSize)
	for i := range T {
		row := lp[i*asr.PhoneSetSize : (i+1)*asr.PhoneSetSize]
		for k := range row {
			row[k] = float32(rng.NormFloat64())
		}
		for _, ph := range []string{"_", "DH", "AH", "K", "AE", "T", "D", "AO"} {
			row[phoneID(t, ph)] += 3 // the tiny lexicon's phones are likely
		}
		models.LogSoftmax(row, row, len(row))
	}
	e := &asr.Encoded{PhoneLogProbs: lp, PhoneT: T}
	o := DefaultOptions()
	o.WordLM, o.PhoneDict, o.WordLMWeight, o.WordBonus = w, d, 0.5, 0.25
	got := phoneBeamSearch(e, o, 100000)
	if len(got) < 5 {
		t.Fatalf("%d transcripts from a beam that keeps all", len(got))
	}
	for _, r := range got {
		words, _ := phoneWords(d, nil, strings.Join(r.words, " "))
		l := &phoneLattice{}
		l.build(words)
		want, _ := phoneCTCScore(lp, T, asr.PhoneSetSize, l, nil)
		if math.Abs(r.ctc-want) > 1e-6*math.Abs(want) {
			t.Errorf("%q: CTC %g, want %g", r.words, r.ctc, want)
		}
		if lm := lmSentence(t, w, r.words); math.Abs(r.lm-lm) > 1e-4 {
			t.Errorf("%q: LM %g, want %g", r.words, r.lm, lm)
		}
		if s := r.ctc + 0.5*r.lm + 0.25*float64(len(r.words)); math.Abs(r.score-s) > 1e-9 {
			t.Errorf("%q: score %g, want %g", r.words, r.score, s)
		}
	}
	for i := 1; i < len(got); i++ {
		if got[i].score > got[i-1].score {
			t.Errorf("transcript %d scores %g above %d's %g", i, got[i].score, i-1, got[i-1].score)
		}
	}
}

func TestPhoneBeamNeeds(t *testing.T) {
	w := tinyWordLM(t, nil, nil)
	d, err := ParsePhoneDict("test", strings.NewReader(tinyPhoneDict))
	if err != nil {
		t.Fatal(err)
	}
	e := peaked(t, "DH AH _")
	for name, o := range map[string]Options{
		"no dictionary": {WordLM: w},
		"no word LM":    {PhoneDict: d},
	} {
		if got := phoneBeamSearch(e, o, 8); got != nil {
			t.Errorf("%s: %d transcripts", name, len(got))
		}
	}
	o := Options{WordLM: w, PhoneDict: d}
	if got := phoneBeamSearch(&asr.Encoded{}, o, 8); got != nil {
		t.Errorf("no phone head: %d transcripts", len(got))
	}
	if got := phoneBeamSearch(e, o, 0); got != nil {
		t.Errorf("width 0: %d transcripts", len(got))
	}
}

// BenchmarkPhoneBeam times the phone beam search of the default decoding
// (width DefaultPhoneBeam, the embedded word LM and dictionary) over 250
// frames of phone posteriors (7.5 s at the first listener layer's 30 ms
// a frame, 15 s at the second's 60 ms), each drawn to favour the blank
// and one phone, as a trained head's are; the trie is built before the
// timer starts, as it is once per word LM.
func BenchmarkPhoneBeam(b *testing.B) {
	lm, err := lm.DefaultNGram()
	if err != nil {
		b.Fatal(err)
	}
	w := testWordLM(b, lm, nil, nil)
	d, err := DefaultPhoneDict()
	if err != nil {
		b.Fatal(err)
	}
	o := DefaultOptions()
	o.WordLM, o.PhoneDict, o.WordLMWeight, o.WordBonus = w, d, 0.3, -0.5
	w.phoneTrie(d)
	const T = 250
	rng := rand.New(rand.NewPCG(1, 2))
	lp := make([]float32, T*asr.PhoneSetSize)
	for t := range T {
		row := lp[t*asr.PhoneSetSize : (t+1)*asr.PhoneSetSize]
		for k := range row {
			row[k] = float32(rng.NormFloat64())
		}
		row[asr.PhoneBlank] += 4
		row[1+rng.IntN(len(asr.Phones))] += 4
		models.LogSoftmax(row, row, len(row))
	}
	e := &asr.Encoded{PhoneLogProbs: lp, PhoneT: T}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if len(phoneBeamSearch(e, o, DefaultPhoneBeam)) == 0 {
			b.Fatal("no transcript")
		}
	}
}
