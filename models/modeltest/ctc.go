package modeltest

import "math"

// CTCNLL is −ln p(target | x) for CTC (Graves et al. 2006) over logits
// (T, V), row-major, float32 or float64, by the textbook log-space forward
// recursion (eq. 6–8 with logarithms) in float64: the reference the CTC
// kernels and heads are checked against where a brute-force sum over
// alignments is out of reach.
// Each row is log-softmax-normalized first, so log-probabilities may be
// passed as they are.
func CTCNLL[F float32 | float64](logits []F, T, V int, target []int, blank int) float64 {
	lse := func(a, b float64) float64 {
		if math.IsInf(a, -1) {
			return b
		}
		if math.IsInf(b, -1) {
			return a
		}
		m := math.Max(a, b)
		return m + math.Log(math.Exp(a-m)+math.Exp(b-m))
	}
	L := 2*len(target) + 1
	lab := func(s int) int {
		if s%2 == 0 {
			return blank
		}
		return target[s/2]
	}
	norm := make([]float64, T)
	for t := range T {
		norm[t] = math.Inf(-1)
		for v := range V {
			norm[t] = lse(norm[t], float64(logits[t*V+v]))
		}
	}
	logp := func(t, k int) float64 { return float64(logits[t*V+k]) - norm[t] }
	alpha := make([]float64, L)
	for s := range alpha {
		alpha[s] = math.Inf(-1)
	}
	alpha[0] = logp(0, blank)
	if L > 1 {
		alpha[1] = logp(0, lab(1))
	}
	for t := 1; t < T; t++ {
		next := make([]float64, L)
		for s := range L {
			a := alpha[s]
			if s >= 1 {
				a = lse(a, alpha[s-1])
			}
			if s >= 2 && lab(s) != blank && lab(s) != lab(s-2) {
				a = lse(a, alpha[s-2])
			}
			next[s] = a + logp(t, lab(s))
		}
		alpha = next
	}
	if L == 1 {
		return -alpha[0]
	}
	return -lse(alpha[L-1], alpha[L-2])
}
