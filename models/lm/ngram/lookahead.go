package ngram

import "math"

// LookAhead returns an upper bound on max ln p(w | s) over the words
// lo ≤ w < hi, and −Inf for an empty range. The beam search calls it for
// every prefix of a word it extends (the ids of the words that share a
// spelling prefix form such a range) to add the best word's probability
// early (language-model look-ahead, Ortmanns et al. 1996).
//
// It walks the back-off chain of s as Score does:
//
//	LA(h, R) = max( max_{w ∈ R, h w in the model} p*(h w),
//	                bow(h) · LA(h', R) )
//
// The first term is exact: a binary search finds the successors of h in R
// (they are contiguous, sorted by id) and a range-maximum query over their
// probabilities answers in O(1) plus at most two partial blocks. The
// second term is dropped when every word of R is a successor of h, and it
// bounds the backed-off words from above (it is exact whenever the best
// backed-off word is not itself a successor of h). At the empty context
// LA(ε, R) is the exact unigram maximum. Cost: O(n·log s) for an order-n
// model whose contexts have at most s successors; no allocation.
func (m *Model) LookAhead(s State, lo, hi WordID) float32 {
	lo = max(lo, 0)
	hi = min(hi, WordID(len(m.vocab)))
	if lo >= hi {
		return float32(math.Inf(-1))
	}
	best := float32(math.Inf(-1))
	var acc float32
	x := int32(s)
	for {
		var i, j int32
		if x == 0 {
			i, j = 1+int32(lo), 1+int32(hi)
		} else {
			a, b := m.child[x], m.child[x+1]
			i = m.lowerBound(a, b, int32(lo))
			j = m.lowerBound(i, b, int32(hi))
		}
		if j > i {
			best = max(best, acc+m.rmq.max(m.prob, i, j))
		}
		if x == 0 || j-i == int32(hi-lo) {
			return best * ln10
		}
		acc += m.bow[x]
		x = m.back[x]
	}
}
