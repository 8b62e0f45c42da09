package ngram

import (
	"math"
	"strings"
	"testing"
)

// mixModels trains two small models on different texts that share some
// words (so each lacks words of the other).
func mixModels(t *testing.T) (*Model, *Model) {
	t.Helper()
	split := func(lines ...string) [][]string {
		var s [][]string
		for _, l := range lines {
			s = append(s, strings.Fields(l))
		}
		return s
	}
	a, err := Train(split("the cat sat on the mat", "the dog sat", "a cat ran", "the cat ran on the mat"), &TrainOptions{Order: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Train(split("a bird sang on a tree", "the bird sat on the tree", "a dog ran", "the tree fell"), &TrainOptions{Order: 2})
	if err != nil {
		t.Fatal(err)
	}
	return a, b
}

// contextSums returns Σ_w p(w | s) over the vocabulary for every context
// node s of m.
func contextSums(m *Model) map[int32]float64 {
	sums := map[int32]float64{}
	for x := int32(0); x < m.start[m.order]; x++ {
		if x != 0 && m.child[x] == m.child[x+1] {
			continue
		}
		var sum float64
		for w := range m.vocab {
			if int32(w) == int32(m.bos) {
				continue
			}
			lp, _ := m.score(x, int32(w))
			sum += math.Pow(10, float64(lp))
		}
		sums[x] = sum
	}
	return sums
}

// TestMix checks the mixture's defining properties for several weights:
// every explicit n-gram of either model gets λ·p_a + (1−λ)·p_b, every
// context's distribution sums to one, the vocabulary is the union, and
// the order the larger.
func TestMix(t *testing.T) {
	a, b := mixModels(t)
	for _, lambda := range []float64{0.2, 0.5, 0.9} {
		m, err := Mix(a, b, MixOptions{Weight: lambda})
		if err != nil {
			t.Fatal(err)
		}
		if m.Order() != 3 {
			t.Errorf("λ %v: order %d, want 3", lambda, m.Order())
		}
		for _, w := range []string{"cat", "bird", "tree", "mat"} {
			if _, ok := m.ID(w); !ok {
				t.Errorf("λ %v: %q missing from the vocabulary", lambda, w)
			}
		}
		for _, src := range []*Model{a, b} {
			src.eachNGram(1, src.order, func(x int32, words []int32) {
				ws := make([]string, len(words))
				for i, w := range words {
					ws[i] = src.vocab[w]
				}
				if ws[len(ws)-1] == SentenceStart {
					return
				}
				want := lambda*prob(a, ws) + (1-lambda)*prob(b, ws)
				if got := prob(m, ws); math.Abs(got-want) > 1e-5*max(want, 1e-3) {
					t.Errorf("λ %v: p(%v) = %.6g, want %.6g", lambda, ws, got, want)
				}
			})
		}
		for x, sum := range contextSums(m) {
			if math.Abs(sum-1) > 1e-4 {
				t.Errorf("λ %v: context %q sums to %.6f", lambda, m.contextWords(x), sum)
			}
		}
	}
}

// TestMixPrune: pruning drops some of the second model's n-grams, keeps
// all of the first's, and the result still normalizes.
func TestMixPrune(t *testing.T) {
	a, b := mixModels(t)
	full, err := Mix(a, b, MixOptions{Weight: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	pruned, err := Mix(a, b, MixOptions{Weight: 0.5, Prune: 0.05})
	if err != nil {
		t.Fatal(err)
	}
	if pruned.NGrams(2) >= full.NGrams(2) {
		t.Errorf("pruned: %d bigrams, unpruned %d", pruned.NGrams(2), full.NGrams(2))
	}
	a.eachNGram(2, a.order, func(x int32, words []int32) {
		s := int32(0)
		for _, w := range words {
			id, _ := pruned.ID(a.vocab[w])
			if s = pruned.findChild(s, int32(id)); s < 0 {
				t.Errorf("first model's %q pruned", joinWords(a.vocab, words))
				return
			}
		}
	})
	for x, sum := range contextSums(pruned) {
		if math.Abs(sum-1) > 1e-4 {
			t.Errorf("context %q sums to %.6f", pruned.contextWords(x), sum)
		}
	}
}

func TestMixErrors(t *testing.T) {
	a, b := mixModels(t)
	for _, o := range []MixOptions{{Weight: 0}, {Weight: 1}, {Weight: -0.5}, {Weight: math.NaN()}, {Weight: 0.5, Prune: -1}} {
		if _, err := Mix(a, b, o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// prob returns p(w | h) of the n-gram ws = h w by m's Score, from the
// empty context (so h may begin with <s>).
func prob(m *Model, ws []string) float64 {
	s := m.Null()
	for _, w := range ws[:len(ws)-1] {
		id, ok := m.ID(w)
		if !ok {
			id = m.Unknown()
		}
		_, s = m.Score(s, id)
	}
	id, ok := m.ID(ws[len(ws)-1])
	if !ok {
		return 0 // Mix's convention: a model gives the words it lacks nothing
	}
	lp, _ := m.Score(s, id)
	return math.Exp(float64(lp))
}

// contextWords spells context node x's n-gram.
func (m *Model) contextWords(x int32) string {
	var words []string
	for x > 0 {
		words = append([]string{m.vocab[m.word[x]]}, words...)
		x = m.parentOf(x)
	}
	return strings.Join(words, " ")
}

// parentOf finds node x's parent by the child ranges.
func (m *Model) parentOf(x int32) int32 {
	for p := int32(0); p < x; p++ {
		if m.child[p] <= x && x < m.child[p+1] {
			return p
		}
	}
	return 0
}
