package ngram

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// TrainOptions configures Train; a nil *TrainOptions or a zero field
// means the default noted.
type TrainOptions struct {
	// Order is n, 2 … 5 (0 means 4).
	Order int
	// MinCount[k-1] is the least adjusted count (see Train) an n-gram of
	// order k ≥ 2 needs to be kept; lower ones are pruned. 0 and 1 keep
	// everything; orders past the end of the list repeat its last entry
	// (as KenLM's --prune does), and nil prunes nothing. MinCount[0]
	// (unigrams) must be 0 or 1: every word keeps its unigram. KenLM's
	// "--prune 0 1 1" (drop adjusted counts ≤ 1) is MinCount {0, 2, 2}.
	MinCount []int
	// MaxVocab keeps the MaxVocab most frequent words (ties by byte
	// order) and reads the others as <unk> (0: keep all).
	MaxVocab int
}

// maxTrainOrder bounds TrainOptions.Order.
const maxTrainOrder = 5

// ErrNoText is returned by Train for an input without a word.
var ErrNoText = errors.New("ngram: no words to train on")

// Train estimates an interpolated modified Kneser-Ney model (Chen &
// Goodman 1998; see the package documentation for the equations, the
// counts and the pruning) from sentences, each a slice of words without
// <s> and </s>. The words "<s>" and "</s>" inside a sentence are read as
// <unk>. The model has every word of the text (or the MaxVocab most
// frequent), <s>, </s> and <unk>.
func Train(sentences [][]string, opts *TrainOptions) (*Model, error) {
	var o TrainOptions
	if opts != nil {
		o = *opts
	}
	if o.Order == 0 {
		o.Order = 4
	}
	if o.Order < 2 || o.Order > maxTrainOrder {
		return nil, fmt.Errorf("ngram: order %d is not in 2 … %d", o.Order, maxTrainOrder)
	}
	if len(o.MinCount) > o.Order {
		return nil, fmt.Errorf("ngram: %d pruning thresholds for an order-%d model", len(o.MinCount), o.Order)
	}
	for k, c := range o.MinCount {
		if c < 0 || (k == 0 && c > 1) {
			return nil, fmt.Errorf("ngram: pruning threshold %d for order %d: want ≥ 0, and unigrams are never pruned", c, k+1)
		}
	}
	if o.MaxVocab < 0 {
		return nil, fmt.Errorf("ngram: MaxVocab %d is negative", o.MaxVocab)
	}
	vocab, ids := trainVocab(sentences, o.MaxVocab)
	if len(vocab) == 3 {
		return nil, ErrNoText
	}
	bos, eos, unk := ids[SentenceStart], ids[SentenceEnd], ids[UnknownWord]
	sents := make([][]int32, len(sentences))
	for i, s := range sentences {
		t := make([]int32, 0, len(s)+2)
		t = append(t, bos)
		for _, w := range s {
			id, ok := ids[w]
			if !ok || id == bos || id == eos {
				id = unk
			}
			t = append(t, id)
		}
		sents[i] = append(t, eos)
	}
	tables := adjustedCounts(sents, o.Order, len(vocab))
	keep := pruneMarks(tables, o.MinCount)
	return build(vocab, estimate(tables, keep, bos))
}

// trainVocab returns the sorted vocabulary of sentences (the maxVocab
// most frequent words when maxVocab > 0) with <s>, </s> and <unk>, and
// its ids.
func trainVocab(sentences [][]string, maxVocab int) ([]string, map[string]int32) {
	freq := map[string]int{}
	for _, s := range sentences {
		for _, w := range s {
			freq[w]++
		}
	}
	for _, w := range []string{SentenceStart, SentenceEnd, UnknownWord} {
		delete(freq, w)
	}
	words := make([]string, 0, len(freq)+3)
	for w := range freq {
		words = append(words, w)
	}
	if maxVocab > 0 && len(words) > maxVocab {
		slices.SortFunc(words, func(a, b string) int {
			if c := cmp.Compare(freq[b], freq[a]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		words = words[:maxVocab]
	}
	words = append(words, SentenceStart, SentenceEnd, UnknownWord)
	slices.Sort(words)
	ids := make(map[string]int32, len(words))
	for i, w := range words {
		ids[w] = int32(i)
	}
	return words, ids
}

// pruneMarks returns keep[k][i]: whether n-gram i of order k stays. An
// n-gram stays when its count reaches MinCount or when it is the prefix of
// one that stays (the ARPA format needs every context present).
func pruneMarks(tables []table, minCount []int) [][]bool {
	order := len(tables) - 1
	keep := make([][]bool, order+1)
	for k := 1; k <= order; k++ {
		keep[k] = make([]bool, tables[k].len())
		threshold := int32(0)
		if len(minCount) > 0 {
			threshold = int32(minCount[min(k, len(minCount))-1])
		}
		for i, c := range tables[k].count {
			keep[k][i] = k == 1 || c >= threshold
		}
	}
	for k := order; k >= 3; k-- {
		hi, lo := tables[k], tables[k-1]
		j := 0
		for i := 0; i < hi.len(); i++ {
			if !keep[k][i] {
				continue
			}
			p := hi.tuple(i)[:k-1]
			for slices.Compare(lo.tuple(j), p) < 0 {
				j++
			}
			keep[k-1][j] = true
		}
	}
	return keep
}

// estimator computes the probabilities of the kept n-grams order by order
// and answers p(w | h) from the orders done so far.
type estimator struct {
	out     []*grams    // out[k-1]: kept n-grams of order k, log10
	p, b    [][]float64 // p[k-1][i], b[k-1][i]: linear prob and back-off of out[k-1]
	scratch []int32
}

// find returns the index of n-gram t in out[len(t)-1], or -1.
func (e *estimator) find(t []int32) int {
	if len(t) == 1 {
		return int(t[0]) // unigrams are in id order
	}
	g := e.out[len(t)-1]
	lo, hi := 0, g.len()
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if slices.Compare(g.tuple(mid), t) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < g.len() && slices.Equal(g.tuple(lo), t) {
		return lo
	}
	return -1
}

// prob returns p(w | h) of the back-off model made of the orders done so
// far (at least len(h)+1 of them).
func (e *estimator) prob(h []int32, w int32) float64 {
	acc := 1.0
	for len(h) > 0 {
		e.scratch = append(append(e.scratch[:0], h...), w)
		if i := e.find(e.scratch); i >= 0 {
			return acc * e.p[len(h)][i]
		}
		if j := e.find(h); j >= 0 {
			acc *= e.b[len(h)-1][j]
		}
		h = h[1:]
	}
	return acc * e.p[0][w]
}

// add appends a finished order.
func (e *estimator) add(g *grams, p []float64) {
	b := make([]float64, len(p))
	for i := range b {
		b[i] = 1 // contexts without successors back off with weight 1
	}
	e.out, e.p, e.b = append(e.out, g), append(e.p, p), append(e.b, b)
}

// estimate turns adjusted counts into the orders of a back-off model:
// interpolated modified Kneser-Ney probabilities for the kept n-grams and
// back-off weights that make every context's distribution sum to 1.
func estimate(tables []table, keep [][]bool, bos int32) []*grams {
	order := len(tables) - 1
	e := &estimator{}
	e.add(estimateUnigrams(tables[1], bos))
	for k := 2; k <= order; k++ {
		t, kept := tables[k], keep[k]
		D := discounts(countOfCounts(t))
		g := &grams{n: k}
		var pk []float64
		contexts, ctx := e.out[k-2], 0
		for i := 0; i < t.len(); {
			// The successors of context h are t[i:j] (eq. 2 and 3 of
			// the package documentation).
			h := t.tuple(i)[:k-1]
			j := i
			var A, mass float64
			pruned := false
			for ; j < t.len() && slices.Equal(t.tuple(j)[:k-1], h); j++ {
				A += float64(t.count[j])
				mass += discount(D, t.count[j])
				pruned = pruned || !kept[j]
			}
			gamma := mass / A
			var sumP, sumLower float64
			for x := i; x < j; x++ {
				if !kept[x] {
					continue
				}
				w := t.tuple(x)[k-1]
				lower := e.prob(h[1:], w)
				p := (float64(t.count[x])-discount(D, t.count[x]))/A + gamma*lower
				sumP, sumLower = sumP+p, sumLower+lower
				g.add(t.tuple(x), float32(math.Log10(p)), 0, 0)
				pk = append(pk, p)
			}
			// The back-off weight (eq. 4): γ(h) where nothing was
			// pruned, else what makes p(· | h) sum to 1.
			bow := gamma
			if pruned {
				bow = max(1-sumP, 1e-12) / max(1-sumLower, 1e-12)
			}
			for ctx < contexts.len() && slices.Compare(contexts.tuple(ctx), h) < 0 {
				ctx++
			}
			if ctx < contexts.len() && slices.Equal(contexts.tuple(ctx), h) { // h itself was kept
				e.b[k-2][ctx] = bow
				contexts.bow[ctx] = float32(math.Log10(bow))
			}
			i = j
		}
		e.add(g, pk)
	}
	return e.out
}

// estimateUnigrams returns the unigram order (eq. 1 of the package
// documentation): discounted continuation counts interpolated with the
// uniform distribution over the words other than <s>, whose probability
// is 0 (log10 −99).
func estimateUnigrams(t table, bos int32) (*grams, []float64) {
	V := t.len()
	D := discounts(countOfCounts(t))
	var A, mass float64
	for w, c := range t.count {
		if int32(w) != bos {
			A += float64(c)
			mass += discount(D, c)
		}
	}
	p := make([]float64, V)
	g := &grams{n: 1, words: make([]int32, V), prob: make([]float32, V), bow: make([]float32, V), line: make([]int32, V)}
	for w, c := range t.count {
		g.words[w] = int32(w)
		if int32(w) == bos {
			g.prob[w] = log10Never
			continue
		}
		p[w] = (float64(c)-discount(D, c))/A + mass/A/float64(V-1)
		g.prob[w] = float32(math.Log10(p[w]))
	}
	return g, p
}
