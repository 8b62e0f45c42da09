package metrics

// rougeBeta is the recall weight β of ROUGE-L in the COCO caption
// evaluation.
const rougeBeta = 1.2

// ROUGEL returns ROUGE-L (Lin 2004) as the COCO caption evaluation
// computes it (pycocoevalcap rouge.py): for a candidate c and references
// r_1…r_k, with L_j the length of the longest common subsequence of c and
// r_j,
//
//	P = max_j L_j/|c|    R = max_j L_j/|r_j|
//	ROUGE-L = (1 + β²)·P·R / (R + β²·P),   β = 1.2
//
// and 0 when P or R is 0. P and R are maximised separately, so they may
// come from different references, as in coco-caption. The corpus score is
// the mean over samples; perSample holds each sample's score in input
// order. Scores are fractions in [0, 1].
func ROUGEL(samples []Sample) (corpus float64, perSample []float64, err error) {
	c, err := newCaptionCorpus(samples)
	if err != nil {
		return 0, nil, err
	}
	corpus, perSample = c.rougeL()
	return corpus, perSample, nil
}

func (c *captionCorpus) rougeL() (float64, []float64) {
	per := make([]float64, len(c.cands))
	var row []int32
	sum := 0.0
	for i, cand := range c.cands {
		var p, r float64
		for _, ref := range c.refs[i] {
			var l int
			l, row = lcsLen(ref, cand, row)
			if len(cand) > 0 {
				p = max(p, float64(l)/float64(len(cand)))
			}
			r = max(r, float64(l)/float64(len(ref)))
		}
		if p != 0 && r != 0 {
			per[i] = (1 + rougeBeta*rougeBeta) * p * r / (r + rougeBeta*rougeBeta*p)
		}
		sum += per[i]
	}
	return sum / float64(len(per)), per
}

// lcsLen returns the length of the longest common subsequence of a and b
// in O(|a|·|b|) time and O(|b|) space, reusing row as scratch (returned
// for the next call).
func lcsLen(a, b []int32, row []int32) (int, []int32) {
	if cap(row) < len(b)+1 {
		row = make([]int32, len(b)+1)
	}
	row = row[:len(b)+1]
	clear(row)
	for _, x := range a {
		var diag int32 // row[j-1] of the previous pass
		for j, y := range b {
			up := row[j+1]
			if x == y {
				row[j+1] = diag + 1
			} else if row[j] > up {
				row[j+1] = row[j]
			}
			diag = up
		}
	}
	return int(row[len(b)]), row
}
