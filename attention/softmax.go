package attention

import "github.com/attend-go/attend/models"

// softmaxRow writes α_t = exp(β·(e_t − m)) / Σ_s exp(β·(e_s − m)), with m
// the largest valid score, for the valid positions of one row, the t in
// [lo, hi) with mask[t] > 0 (a nil mask marks every position valid), and
// α_t = 0 everywhere else in the row. A row with no valid position gets all
// zeros, never NaN. e is read only at valid positions, so it may be alpha
// itself.
func softmaxRow[F Float](alpha, e, mask []F, lo, hi int, beta F) {
	var m F
	found := false
	for t := lo; t < hi; t++ {
		if mask != nil && mask[t] <= 0 {
			continue
		}
		if !found || e[t] > m {
			m, found = e[t], true
		}
	}
	clear(alpha[:lo])
	clear(alpha[hi:])
	if !found {
		clear(alpha[lo:hi])
		return
	}
	// β·(e_t − m) ≤ 0 for every finite score, however large: the exponent
	// never overflows, and the maximum contributes exp(0) = 1 to the sum.
	var sum F
	for t := lo; t < hi; t++ {
		if mask != nil && mask[t] <= 0 {
			alpha[t] = 0
			continue
		}
		x := models.Exp(beta * (e[t] - m))
		alpha[t] = x
		sum += x
	}
	inv := 1 / sum
	for t := lo; t < hi; t++ {
		alpha[t] *= inv
	}
}

// softmaxBackwardRow writes the gradient with respect to the scores e of
// one row: de_t = β·α_t·(dα_t − Σ_s α_s·dα_s). Positions outside the
// softmax have α_t = 0 and so get de_t = 0.
func softmaxBackwardRow[F Float](de, alpha, dAlpha []F, beta F) {
	var s F
	for t, a := range alpha {
		s += a * dAlpha[t]
	}
	for t, a := range alpha {
		de[t] = beta * a * (dAlpha[t] - s)
	}
}

// realCount returns the number of valid positions of one mask row (its
// length for the prefix masks MaskFromLengths makes); a nil mask counts T.
func realCount[F Float](mask []F, T int) int {
	if mask == nil {
		return T
	}
	n := 0
	for _, m := range mask[:T] {
		if m > 0 {
			n++
		}
	}
	return n
}
