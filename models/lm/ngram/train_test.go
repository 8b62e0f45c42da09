package ngram

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// zipfCorpus draws n sentences from a vocabulary of v words with a
// Zipf-like frequency and some local structure (a word often follows
// its predecessor's "partner"), so that every order has repeats.
func zipfCorpus(seed uint64, n, v int) [][]string {
	rng := rand.New(rand.NewPCG(seed, 7))
	z := rand.NewZipf(rng, 1.2, 2, uint64(v-1))
	out := make([][]string, n)
	for i := range out {
		s := make([]string, 1+rng.IntN(10))
		prev := 0
		for j := range s {
			w := int(z.Uint64())
			if rng.IntN(3) == 0 {
				w = (prev*7 + 3) % v
			}
			s[j] = fmt.Sprintf("w%d", w)
			prev = w
		}
		out[i] = s
	}
	return out
}

// checkSumsToOne checks Σ_w p(w | s) = 1 over the vocabulary less <s>
// for every context s of m.
func checkSumsToOne(t *testing.T, m *Model, tol float64) {
	t.Helper()
	V := len(m.Words())
	n := 0
	for x := int32(0); x < int32(len(m.word)); x++ {
		if m.stateOf(x) != State(x) {
			continue
		}
		sum := 0.0
		for w := range V {
			if WordID(w) == m.bos {
				continue
			}
			lp, _ := m.Score(State(x), WordID(w))
			sum += math.Exp(float64(lp))
		}
		if math.Abs(sum-1) > tol {
			t.Fatalf("context node %d: probabilities sum to %.6f", x, sum)
		}
		n++
	}
	if n < 2 {
		t.Fatalf("only %d contexts checked", n)
	}
}

func TestTrainSumsToOne(t *testing.T) {
	corpus := zipfCorpus(1, 400, 40)
	tests := []struct {
		name string
		opts TrainOptions
	}{
		{"order 2", TrainOptions{Order: 2}},
		{"order 3", TrainOptions{Order: 3}},
		{"order 4", TrainOptions{Order: 4}},
		{"order 5", TrainOptions{Order: 5}},
		{"order 2 pruned", TrainOptions{Order: 2, MinCount: []int{0, 2}}},
		{"order 3 pruned", TrainOptions{Order: 3, MinCount: []int{0, 2, 2}}},
		{"order 4 pruned", TrainOptions{Order: 4, MinCount: []int{0, 1, 3, 2}}},
		{"order 5 pruned", TrainOptions{Order: 5, MinCount: []int{0, 2, 2, 3, 3}}},
		{"order 3 max vocab", TrainOptions{Order: 3, MaxVocab: 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Train(corpus, &tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkSumsToOne(t, m, 1e-4)
		})
	}
}

// TestTrainRoundTrip checks Train → WriteARPA → Read scores exactly as
// the trained model, and that the text reads back the same.
func TestTrainRoundTrip(t *testing.T) {
	corpus := zipfCorpus(2, 300, 30)
	for _, opts := range []TrainOptions{{Order: 3}, {Order: 4, MinCount: []int{0, 2, 2, 2}}} {
		m, err := Train(corpus, &opts)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := m.WriteARPA(&buf); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		r := loadText(t, text, nil)
		if len(r.word) != len(m.word) {
			t.Fatalf("%d nodes read back, want %d", len(r.word), len(m.word))
		}
		for i := range m.word {
			if m.word[i] != r.word[i] || m.prob[i] != r.prob[i] || m.bow[i] != r.bow[i] || m.back[i] != r.back[i] {
				t.Fatalf("node %d differs after the round trip", i)
			}
		}
		var again bytes.Buffer
		r.WriteARPA(&again)
		if again.String() != text {
			t.Error("WriteARPA(Read(WriteARPA(m))) differs from WriteARPA(m)")
		}
		ref := parseNaive(text)
		for _, s := range zipfCorpus(3, 50, 35) {
			got, _ := r.Log10Prob(s)
			if want := ref.sentence(s); math.Abs(got-want) > 1e-4 {
				t.Errorf("%q: %.5f, want %.5f (naive back-off)", s, got, want)
			}
		}
	}
}

func TestTrainErrors(t *testing.T) {
	corpus := [][]string{{"a", "b"}}
	tests := []struct {
		name   string
		corpus [][]string
		opts   TrainOptions
		want   string
	}{
		{"order 1", corpus, TrainOptions{Order: 1}, "order 1"},
		{"order 6", corpus, TrainOptions{Order: 6}, "order 6"},
		{"too many thresholds", corpus, TrainOptions{Order: 2, MinCount: []int{0, 1, 1}}, "3 pruning thresholds"},
		{"unigram pruning", corpus, TrainOptions{Order: 2, MinCount: []int{2}}, "never pruned"},
		{"negative", corpus, TrainOptions{Order: 2, MinCount: []int{0, -1}}, "threshold -1"},
		{"no words", [][]string{{}, {}}, TrainOptions{}, "no words"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Train(tc.corpus, &tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// TestTrainHandComputed checks an order-2 model of three sentences
// against probabilities worked out by hand from the equations of the
// package documentation.
//
//	bigram counts: <s> a 2, <s> b 1, a b 1, a c 1, b </s> 2, c </s> 1
//	order 2: n1 = 4, n2 = 2, n3 = 0 → Y = 1/2, D1 = 1/2, D2 = D3+ = Y = 1/2
//	unigram continuation counts: a 1, b 2, c 1, </s> 2 (A = 6)
//	order 1: n1 = 2, n2 = 2 → Y = 1/3, D1 = 1/3, D2 = D3+ = 1/3
//	γ(ε) = (2·1/3 + 2·1/3)/6 = 2/9, shared by 5 words: 2/45 each
//	p(a) = p(c) = (2/3)/6 + 2/45 = 7/45, p(b) = p(</s>) = (5/3)/6 + 2/45 = 29/90
//	p(a|<s>) = 1.5/3 + 1/3·7/45 = 149/270    γ(<s>) = 1/3
//	p(b|a) = 0.5/2 + 1/2·29/90 = 74/180      p(</s>|b) = 1.5/2 + 1/4·29/90 = 299/360
//	p(c|<s>) = γ(<s>)·p(c) = 7/135           p(</s>|c) = 0.5 + 1/2·29/90 = 119/180
func TestTrainHandComputed(t *testing.T) {
	m, err := Train([][]string{{"a", "b"}, {"a", "c"}, {"b"}}, &TrainOptions{Order: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(m.Words(), " "), "</s> <s> <unk> a b c"; got != want {
		t.Fatalf("Words = %q, want %q", got, want)
	}
	tests := []struct {
		words []string
		want  float64
	}{
		{[]string{"a", "b"}, 149.0 / 270 * 74 / 180 * 299 / 360},
		{[]string{"c"}, 7.0 / 135 * 119 / 180},
		{[]string{"zzz"}, 1.0 / 3 * 2 / 45 * 29 / 90}, // <unk>: uniform share only; </s> after it: unigram
	}
	for _, tc := range tests {
		got, _ := m.Log10Prob(tc.words)
		if want := math.Log10(tc.want); math.Abs(got-want) > 1e-6 {
			t.Errorf("Log10Prob(%q) = %.7f, want %.7f", tc.words, got, want)
		}
	}
	unigrams := map[string]float64{"a": 7.0 / 45, "b": 29.0 / 90, "c": 7.0 / 45, "</s>": 29.0 / 90, "<unk>": 2.0 / 45}
	for w, p := range unigrams {
		id, _ := m.ID(w)
		lp, _ := m.Score(m.Null(), id)
		if math.Abs(float64(lp)-math.Log(p)) > 1e-6 {
			t.Errorf("ln p(%s) = %.7f, want %.7f", w, lp, math.Log(p))
		}
	}
}

// TestPruneRepeatsLastThreshold checks that orders past the end of
// MinCount use its last entry, as KenLM's --prune does.
func TestPruneRepeatsLastThreshold(t *testing.T) {
	corpus := zipfCorpus(5, 300, 30)
	short, err := Train(corpus, &TrainOptions{Order: 3, MinCount: []int{0, 2}})
	if err != nil {
		t.Fatal(err)
	}
	full, err := Train(corpus, &TrainOptions{Order: 3, MinCount: []int{0, 2, 2}})
	if err != nil {
		t.Fatal(err)
	}
	none, err := Train(corpus, &TrainOptions{Order: 3})
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= 3; k++ {
		if short.NGrams(k) != full.NGrams(k) {
			t.Errorf("order %d: %d n-grams with {0, 2}, %d with {0, 2, 2}", k, short.NGrams(k), full.NGrams(k))
		}
	}
	if full.NGrams(3) >= none.NGrams(3) {
		t.Errorf("pruning kept all %d trigrams", none.NGrams(3))
	}
}
