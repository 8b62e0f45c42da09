package metrics

import "math"

// BLEU returns corpus BLEU-1 … BLEU-4 of the samples (Papineni et al.
// 2002) exactly as the COCO caption evaluation computes it
// (pycocoevalcap bleu_scorer.py, option "closest"):
//
//   - For each sample and n = 1…4, the candidate's n-gram counts are
//     clipped by the largest count of the n-gram in any single reference;
//     correct_n sums the clipped counts over the corpus and guess_n the
//     candidate n-gram totals max(0, c−n+1) for candidate length c.
//   - The effective reference length of a sample is the reference length
//     closest to c, the shorter one on a tie; r sums them over the corpus
//     and C sums the candidate lengths.
//   - BLEU-N = (∏_{n≤N} (correct_n + 10⁻¹⁵)/(guess_n + 10⁻⁹))^{1/N} · BP,
//     with BP = exp(1 − 1/ratio) when ratio = (C + 10⁻¹⁵)/(r + 10⁻⁹) < 1
//     and 1 otherwise.
//
// The two constants are coco-caption's "tiny" and "small". They avoid
// 0/0, and they make an order without a single match (or without any
// n-gram: a candidate shorter than n) count as a small precision instead
// of zeroing the product: a two-word candidate that matches its
// reference's first two words gets BLEU-3 = (1·1·10⁻⁶)^⅓·BP = 0.01·BP,
// and BLEU-4 of a corpus with no matching 4-gram is of order 10⁻⁴, not 0.
// They also put BP a hair below 1 (1 − 10⁻⁹/C) when C = r. Scores are
// fractions in [0, 1]; papers often print them ×100.
//
// Tokens are compared exactly: coco-caption lower-cases and strips
// punctuation first, which Tokenize approximates.
func BLEU(samples []Sample) ([4]float64, error) {
	c, err := newCaptionCorpus(samples)
	if err != nil {
		return [4]float64{}, err
	}
	return c.bleu(), nil
}

func (c *captionCorpus) bleu() [4]float64 {
	const (
		tiny  = 1e-15
		small = 1e-9
	)
	c.ngrams()
	var correct, guess [maxOrder]float64
	var testLen, refLen float64
	// refMax[id] is the largest count of n-gram id in one reference of
	// the current sample; touched lists the ids to reset.
	refMax := make([]int32, len(c.grams.local.order))
	var touched []int32
	for i, ids := range c.cands {
		for _, ref := range c.refGrams[i] {
			for _, g := range ref {
				if refMax[g.id] == 0 {
					touched = append(touched, g.id)
				}
				refMax[g.id] = max(refMax[g.id], g.count)
			}
		}
		for _, g := range c.candGrams[i] {
			correct[c.grams.order(g.id)-1] += float64(min(g.count, refMax[g.id]))
		}
		for _, id := range touched {
			refMax[id] = 0
		}
		touched = touched[:0]

		n := len(ids)
		for k := range maxOrder {
			guess[k] += float64(max(0, n-k))
		}
		testLen += float64(n)
		refLen += float64(closestRefLen(n, c.refs[i]))
	}

	var out [4]float64
	ratio := (testLen + tiny) / (refLen + small)
	for n := 1; n <= maxOrder; n++ {
		b := 1.0
		for k := range n {
			b *= (correct[k] + tiny) / (guess[k] + small)
		}
		out[n-1] = math.Pow(b, 1/float64(n))
		if ratio < 1 {
			out[n-1] *= math.Exp(1 - 1/ratio)
		}
	}
	return out
}

// closestRefLen returns the length of the reference closest in length to
// a candidate of n words, the shorter one on a tie (coco-caption's
// min((abs(l − n), l))).
func closestRefLen(n int, refs [][]int32) int {
	best, bestDiff := -1, 0
	for _, r := range refs {
		l := len(r)
		d := l - n
		if d < 0 {
			d = -d
		}
		if best < 0 || d < bestDiff || d == bestDiff && l < best {
			best, bestDiff = l, d
		}
	}
	return best
}
