package ngram

import (
	"fmt"
	"math"
	"slices"
)

// MixOptions configures Mix.
type MixOptions struct {
	// Weight is λ, the first model's share of each probability, in (0, 1).
	Weight float64
	// Prune, when positive, drops the second model's n-grams of order ≥ 2
	// whose weighted relative-entropy gain (Stolcke 1998, without the
	// back-off renormalization term)
	//
	//	p(h) · p(w|h) · ln( p(w|h) / (bow(h) · p(w|h')) )
	//
	// under the second model is below Prune (the n-gram then backs off
	// in the mixture). The first model's n-grams are all kept. 1e-7 keeps
	// about half of CMU Sphinx's en-us model, 1e-6 a fifth.
	Prune float64
}

// Mix interpolates two back-off models linearly (Jelinek and Mercer 1980;
// SRILM's ngram -mix-lm):
//
//	p(w | h) = λ · p_a(w | h) + (1 − λ) · p_b(w | h)
//
// for every n-gram h w of either model, each p as its model scores it
// (backing off where it lacks the n-gram); the vocabulary is the union of
// both. The back-off weights are then recomputed so that every context's
// distribution sums to one,
//
//	bow(h) = (1 − Σ_{w: hw ∈ mix} p(w | h)) / (1 − Σ_{w: hw ∈ mix} p(w | h')),
//
// with h' = h without its first word, scored by the mixture itself. The
// vocabulary is the union of both; a model gives the words it lacks
// probability 0 (its <unk> keeps its own mass, as a word of the union),
// so each context's distribution over the union sums to one; in a
// history, a word a model lacks is its <unk>. The order is the larger of
// the two.
func Mix(a, b *Model, o MixOptions) (*Model, error) {
	if !(o.Weight > 0 && o.Weight < 1) {
		return nil, fmt.Errorf("ngram: mixture weight %v is outside (0, 1)", o.Weight)
	}
	if o.Prune < 0 || math.IsNaN(o.Prune) {
		return nil, fmt.Errorf("ngram: pruning threshold %v is negative", o.Prune)
	}
	vocab := slices.Concat(a.vocab, b.vocab)
	slices.Sort(vocab)
	vocab = slices.Compact(vocab)
	order := max(a.order, b.order)
	levels := make([]*grams, order)
	for k := range levels {
		levels[k] = &grams{n: k + 1}
	}
	for w := range vocab {
		levels[0].add([]int32{int32(w)}, 0, 0, 0)
	}
	for _, src := range []struct {
		m     *Model
		prune float64
	}{{a, 0}, {b, o.Prune}} {
		m := src.m
		ids := make([]int32, len(m.vocab)) // m's ids → the mixture's
		for i, w := range m.vocab {
			id, _ := slices.BinarySearch(vocab, w)
			ids[i] = int32(id)
		}
		m.eachNGram(2, m.order, func(x int32, words []int32) {
			if src.prune > 0 && m.pruneGain(x, words) < src.prune {
				return
			}
			t := make([]int32, len(words))
			for i, w := range words {
				t[i] = ids[w]
			}
			levels[len(t)-1].add(t, 0, 0, 0)
		})
	}
	for _, g := range levels[1:] {
		dedupGrams(g)
	}
	completePrefixes(levels)
	// The mixed probability of every n-gram, from each model's view.
	ctxA, ctxB := newMapper(a, vocab), newMapper(b, vocab)
	for _, g := range levels {
		for i := range g.len() {
			t := g.tuple(i)
			pa := ctxA.log10(t)
			pb := ctxB.log10(t)
			g.prob[i] = float32(logAdd10(math.Log10(o.Weight)+pa, math.Log10(1-o.Weight)+pb))
			g.bow[i] = 0
		}
	}
	m, err := build(vocab, levels)
	if err != nil {
		return nil, err
	}
	m.renormalize()
	return m, nil
}

// renormalize sets the back-off weight of every context from its
// successors' probabilities, shorter contexts first (see Mix).
func (m *Model) renormalize() {
	for k := 1; k < m.order; k++ {
		for x := m.start[k]; x < m.start[k+1]; x++ {
			lo, hi := m.child[x], m.child[x+1]
			if lo == hi {
				continue
			}
			suffix := int32(0) // the state of h' (the empty context for a unigram h)
			if k > 1 {
				suffix = m.back[x]
			}
			var num, den float64
			for c := lo; c < hi; c++ {
				num += math.Pow(10, float64(m.prob[c]))
				lp, _ := m.score(suffix, m.word[c])
				den += math.Pow(10, float64(lp))
			}
			const floor = 1e-10 // a context whose successors take all the mass
			m.bow[x] = float32(math.Log10(max(1-num, floor) / max(1-den, floor)))
			if m.bow[x] == 0 { // keep x a context (stateOf)
				m.bow[x] = float32(math.SmallestNonzeroFloat32)
			}
		}
	}
}

// eachNGram calls f with every node of order from … to and its n-gram,
// in trie order; words is reused between calls.
func (m *Model) eachNGram(from, to int, f func(x int32, words []int32)) {
	words := make([]int32, 0, m.order)
	var walk func(x int32)
	walk = func(x int32) {
		for c := m.child[x]; c < m.child[x+1]; c++ {
			words = append(words, m.word[c])
			if len(words) >= from {
				f(c, words)
			}
			if len(words) < to {
				walk(c)
			}
			words = words[:len(words)-1]
		}
	}
	walk(0)
}

// pruneGain is MixOptions.Prune's criterion for node x, whose n-gram is
// h w = words: p(h) · p(w|h) · ln(p(w|h) / (bow(h) · p(w|h'))), with p(h)
// the chain of the model's own probabilities (<s> counting as certain).
func (m *Model) pruneGain(x int32, words []int32) float64 {
	h := words[:len(words)-1]
	var logH float64 // log10 p(h)
	s := int32(0)
	for _, w := range h {
		lp, c := m.score(s, w)
		if w != int32(m.bos) {
			logH += float64(lp)
		}
		s = int32(m.stateOf(c))
	}
	// h's node is the parent of x; its back-off weight and the suffix h'.
	parent := s
	lpBack, _ := m.score(m.back[parent], words[len(words)-1])
	lp := float64(m.prob[x])
	back := float64(m.bow[parent]) + float64(lpBack)
	return math.Pow(10, logH+lp) * (lp - back) * ln10
}

// dedupGrams sorts g and removes repeated n-grams.
func dedupGrams(g *grams) {
	perm := make([]int32, g.len())
	for i := range perm {
		perm[i] = int32(i)
	}
	slices.SortFunc(perm, func(a, b int32) int { return cmpTuple(g.tuple(int(a)), g.tuple(int(b))) })
	out := grams{n: g.n}
	for _, p := range perm {
		t := g.tuple(int(p))
		if n := out.len(); n > 0 && cmpTuple(out.tuple(n-1), t) == 0 {
			continue
		}
		out.add(t, g.prob[p], g.bow[p], g.line[p])
	}
	*g = out
}

// mapper scores the mixture's n-grams with one of its models.
type mapper struct {
	m   *Model
	ids []int32 // the mixture's word ids → m's, −1 where it lacks the word
}

func newMapper(m *Model, vocab []string) *mapper {
	ids := make([]int32, len(vocab))
	for i, w := range vocab {
		id, ok := m.ids[w]
		if !ok {
			id = -1
		}
		ids[i] = int32(id)
	}
	return &mapper{m: m, ids: ids}
}

// log10 returns log10 p(w | h) of the n-gram t = h w under the model:
// −Inf for a word w it lacks; a word of h it lacks is its <unk>.
func (p *mapper) log10(t []int32) float64 {
	w := p.ids[t[len(t)-1]]
	if w < 0 {
		return math.Inf(-1)
	}
	s := int32(0)
	for _, v := range t[:len(t)-1] {
		id := p.ids[v]
		if id < 0 {
			id = int32(p.m.unk)
		}
		_, c := p.m.score(s, id)
		s = int32(p.m.stateOf(c))
	}
	lp, _ := p.m.score(s, w)
	return float64(lp)
}

// logAdd10 returns log10(10^a + 10^b), for a or b −Inf too.
func logAdd10(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(b, -1) {
		return a
	}
	return a + math.Log10(1+math.Pow(10, b-a))
}
