package decode

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/lm/ngram"
)

// tinyARPA is a hand-written bigram model over a few words; "cow" is not
// in it.
const tinyARPA = `\data\
ngram 1=9
ngram 2=6

\1-grams:
-1.0	</s>
-99	<s>	-0.5
-2.0	<unk>
-1.2	a	-0.3
-1.5	cat	-0.2
-1.9	cats	-0.2
-1.4	dog	-0.2
-0.9	the	-0.4
-2.5	x-ray

\2-grams:
-0.3	<s> the
-1.1	<s> a
-0.4	the cat
-0.8	the dog
-0.2	cat </s>
-0.5	a dog

\end\
`

func tinyWordLM(t *testing.T, extra []string, hot map[string]float32) *WordLM {
	t.Helper()
	lm, err := ngram.Read(strings.NewReader(tinyARPA), nil)
	if err != nil {
		t.Fatal(err)
	}
	return testWordLM(t, lm, extra, hot)
}

// testWordLM fuses lm for the default vocabulary with lexicon extras,
// hotwords and an OOV penalty of 2.
func testWordLM(tb testing.TB, lm *ngram.Model, extra []string, hot map[string]float32) *WordLM {
	tb.Helper()
	v := asr.DefaultVocab()
	lx, err := NewLexicon(lm, v, extra, hot)
	if err != nil {
		tb.Fatal(err)
	}
	w, err := NewWordLM(lm, lx, v, 2)
	if err != nil {
		tb.Fatal(err)
	}
	return w
}

// lmLog10 is the ARPA back-off probability of a sentence, by hand.
func lmSentence(t *testing.T, w *WordLM, words []string) float64 {
	t.Helper()
	s := w.Model.Begin()
	total := 0.0
	for _, word := range words {
		id, ok := w.Model.ID(word)
		if !ok {
			id = w.Model.Unknown()
		}
		lp, next := w.Model.Score(s, id)
		total += float64(lp)
		s = next
	}
	return total + float64(w.Model.End(s))
}

func TestLexiconNarrow(t *testing.T) {
	w := tinyWordLM(t, []string{"cow"}, nil)
	lx := w.Lexicon
	if got := strings.Join(lx.words, ","); got != "a,cat,cats,cow,dog,the" {
		t.Fatalf("lexicon %s: want the spellable LM words and cow (not <s>, <unk>, x-ray)", got)
	}
	tests := []struct {
		prefix   string
		words    string
		complete string
	}{
		{"c", "cat,cats,cow", ""},
		{"ca", "cat,cats", ""},
		{"cat", "cat,cats", "cat"},
		{"cats", "cats", "cats"},
		{"d", "dog", ""},
		{"z", "", ""},
		{"catz", "", ""},
	}
	for _, tc := range tests {
		lo, hi := int32(0), int32(lx.Len())
		for i := range len(tc.prefix) {
			lo, hi = lx.narrow(lo, hi, i, tc.prefix[i:i+1])
		}
		if got := strings.Join(lx.words[lo:hi], ","); got != tc.words {
			t.Errorf("%q: range %q, want %q", tc.prefix, got, tc.words)
		}
		c := lx.complete(lo, hi, len(tc.prefix))
		got := ""
		if c >= 0 {
			got = lx.words[c]
		}
		if got != tc.complete {
			t.Errorf("%q: complete word %q, want %q", tc.prefix, got, tc.complete)
		}
	}
}

// spell feeds a transcript through extend and returns the summed score
// changes, the completed-word count and the states after each token.
func spell(t *testing.T, w *WordLM, text string) (float64, int32, []wordState) {
	t.Helper()
	v := asr.DefaultVocab()
	toks, err := v.Encode(text)
	if err != nil {
		t.Fatal(err)
	}
	s := w.start()
	total := float64(s.la)
	var states []wordState
	for _, tok := range append(toks, asr.EOS) {
		var d float32
		s, d, _ = w.extend(s, tok)
		total += float64(d)
		states = append(states, s)
	}
	return total, s.words, states
}

func TestWordLMTelescopes(t *testing.T) {
	w := tinyWordLM(t, []string{"cow"}, nil)
	unk := func(ctx ngram.State) float64 { lp, _ := w.unknown(ctx); return float64(lp) }
	spelled := func(word string) float64 { // the spelling of an unknown word, and its penalty
		toks, _ := asr.DefaultVocab().Encode(word)
		c := float64(w.spellEnd) - 2
		for _, tok := range toks {
			c += float64(w.spell[tok])
		}
		return c
	}
	tests := []struct {
		text  string
		words []string
		extra float64 // beyond the LM's own score
	}{
		{"the cat", []string{"the", "cat"}, 0},
		{"a dog", []string{"a", "dog"}, 0},
		{"the cats", []string{"the", "cats"}, 0},
		{"the  cat", []string{"the", "cat"}, 0},  // two spaces spell no word
		{"the cow", []string{"the", "<unk>"}, 0}, // in the lexicon, not the LM: no penalty
		{"the zebra", []string{"the", "<unk>"}, spelled("zebra")},
		{"the ca", []string{"the", "<unk>"}, spelled("ca")}, // a prefix that is no word
		{"zz zz", []string{"<unk>", "<unk>"}, 2 * spelled("zz")},
	}
	_ = unk
	for _, noLookAhead := range []bool{false, true} {
		w.NoLookAhead = noLookAhead
		for _, tc := range tests {
			got, n, _ := spell(t, w, tc.text)
			want := lmSentence(t, w, tc.words) + tc.extra
			if math.Abs(got-want) > 1e-4 {
				t.Errorf("%q (no look-ahead %v): summed score %.5f, want the LM's %.5f", tc.text, noLookAhead, got, want)
			}
			if int(n) != len(tc.words) {
				t.Errorf("%q: %d words, want %d", tc.text, n, len(tc.words))
			}
		}
	}
}

// TestWordLMLookAheadBounds checks that inside a word the counted score
// never falls below the best word the prefix can still become.
func TestWordLMLookAheadBounds(t *testing.T) {
	w := tinyWordLM(t, []string{"cow"}, map[string]float32{"dog": 1.5})
	lx := w.Lexicon
	for _, prefix := range []string{"c", "ca", "cat", "d", "do", "t", "th"} {
		_, _, states := spell(t, w, "the "+prefix)
		s := states[len(states)-2] // before EOS
		best := float32(math.Inf(-1))
		for i := s.lo; i < s.hi; i++ {
			best = max(best, w.wordScore(s.ctx, i)+lx.bonus[i])
		}
		if s.la < best-1e-5 {
			t.Errorf("prefix %q: look-ahead %.4f below the best word under it (%.4f)", prefix, s.la, best)
		}
		if s.la > best+1e-5 && !strings.HasPrefix("dog", prefix) {
			// The n-gram look-ahead may be looser than exact, but on
			// this tiny model it is exact.
			t.Errorf("prefix %q: look-ahead %.4f, want exactly %.4f", prefix, s.la, best)
		}
	}
}

func TestWordLMHotwordBonus(t *testing.T) {
	plain := tinyWordLM(t, nil, nil)
	hot := tinyWordLM(t, nil, map[string]float32{"dog": 3, "zorro": 2})
	a, _, _ := spell(t, plain, "the dog")
	b, _, _ := spell(t, hot, "the dog")
	if math.Abs((b-a)-3) > 1e-4 {
		t.Errorf("hotword dog: score %.4f vs %.4f without, want +3", b, a)
	}
	// zorro is not in the LM: scored as <unk> plus its bonus, without the
	// OOV penalty and spelling cost it pays as an unknown word.
	c, _, _ := spell(t, hot, "the zorro")
	d, _, _ := spell(t, plain, "the zorro")
	toks, _ := asr.DefaultVocab().Encode("zorro")
	spelling := float64(plain.spellEnd)
	for _, tok := range toks {
		spelling += float64(plain.spell[tok])
	}
	if want := 2 + 2 - spelling; math.Abs((c-d)-want) > 1e-4 {
		t.Errorf("hotword zorro: score %.4f vs %.4f as an OOV word, want %+.4f (bonus, penalty and spelling)", c, d, want)
	}
}

func TestNewLexiconRejectsUnspellable(t *testing.T) {
	lm, err := ngram.Read(strings.NewReader(tinyARPA), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewLexicon(lm, asr.DefaultVocab(), []string{"naïve"}, nil); err == nil || !strings.Contains(err.Error(), "naïve") {
		t.Errorf("lexicon word naïve: error %v, want one naming it", err)
	}
	if _, err := NewLexicon(lm, asr.DefaultVocab(), nil, map[string]float32{"R2D2": 1}); err == nil || !strings.Contains(err.Error(), "R2D2") {
		t.Errorf("hotword R2D2: error %v, want one naming it", err)
	}
}

// TestNarrowByte narrows random prefixes of a random sorted word list (a
// three-letter alphabet, so that words share long prefixes, words that
// end where others go on, and one-byte and two-byte letters) by
// narrowByte and by comparing the strings: the same ranges.
func TestNarrowByte(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	letters := []string{"a", "b", "é"}
	seen := map[string]bool{}
	var words []string
	for range 400 {
		var w strings.Builder
		for range 1 + rng.IntN(6) {
			w.WriteString(letters[rng.IntN(len(letters))])
		}
		if !seen[w.String()] {
			seen[w.String()] = true
			words = append(words, w.String())
		}
	}
	slices.Sort(words)
	byStrings := func(span []string, depth int, c string) (int, int) {
		a := sort.Search(len(span), func(i int) bool { return span[i][depth:] >= c })
		b := a + sort.Search(len(span)-a, func(i int) bool { return !strings.HasPrefix(span[a+i][depth:], c) })
		return a, b
	}
	for range 2000 {
		lo, hi, depth := 0, len(words), 0
		for lo < hi {
			c := []byte{"ab\xc3\xa9"[rng.IntN(4)]} // the bytes of a, b, é
			a, b := narrowByte(words[lo:hi], depth, c[0])
			wa, wb := byStrings(words[lo:hi], depth, string(c))
			if a != wa || b != wb {
				t.Fatalf("narrowing %q at depth %d by %q: [%d, %d), want [%d, %d)", words[lo:hi], depth, c, a, b, wa, wb)
			}
			lo, hi, depth = lo+a, lo+b, depth+1
		}
	}
}
