package models

// CTCGreedy is the best-path decoding of one sequence (Graves et al. 2006,
// §3.2): the most probable label of each of the first steps frames of
// scores (steps, vocab) — logits, probabilities or log-probabilities, which
// share their argmax — with repeats merged and blanks dropped. A tie goes
// to the lower label. The labels are appended to dst[:0], which is returned.
func CTCGreedy[F Float](dst []int, scores []F, steps, vocab, blank int) []int {
	dst = dst[:0]
	prev := -1
	for t := range steps {
		row := scores[t*vocab : (t+1)*vocab]
		best := 0
		for k := 1; k < vocab; k++ {
			if row[k] > row[best] {
				best = k
			}
		}
		if best != prev && best != blank {
			dst = append(dst, best)
		}
		prev = best
	}
	return dst
}
