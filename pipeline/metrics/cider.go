package metrics

import (
	"fmt"
	"math"
)

// ciderSigma is the standard deviation, in words, of CIDEr-D's Gaussian
// length penalty.
const ciderSigma = 6.0

// CIDErD returns CIDEr-D (Vedantam, Zitnick and Parikh 2015) as the COCO
// caption evaluation computes it (pycocoevalcap cider_scorer.py, which is
// the CIDEr-D variant, with document frequencies from the evaluated
// corpus: vrama91/cider's df="corpus" mode). With N samples, for each
// n = 1…4 every sentence s becomes a vector over its n-grams g:
//
//	g_n(s)[g] = tf_s(g) · (log N − log max(1, df(g)))
//
// tf_s(g) the count of g in s and df(g) the number of samples whose
// references contain g. For a candidate c and references r_1…r_m,
//
//	CIDEr-D = 10/m · Σ_j 1/4 · Σ_n  e^{−δ_j²/2σ²} · Σ_g min(g_n(c)[g], g_n(r_j)[g]) · g_n(r_j)[g]
//	                                                  ─────────────────────────────────────────
//	                                                        ‖g_n(c)‖ · ‖g_n(r_j)‖
//
// with σ = 6 and the quotient taken as its numerator when a norm is 0.
// The corpus score is the mean over samples; perSample holds each
// sample's score in input order.
//
// The length difference is δ_j = |c| − |r_j| in words. (The coco-caption
// code measures both lengths in bigrams, which gives the same difference
// whenever the candidate is not empty; an empty candidate scores 0
// either way.)
//
// Scale: CIDEr-D is 0 for no overlap and 10 at most for a candidate that
// equals all its references; trained captioning models score about
// 0.4–1.2 on this scale, which papers often print ×100 (e.g. 45.0 for
// 0.45). A single-sample corpus scores 0, since log N = 0. To score
// captions against document frequencies of another corpus (the training
// references, as self-critical training does), use NewCIDErD.
func CIDErD(samples []Sample) (corpus float64, perSample []float64, err error) {
	c, err := newCaptionCorpus(samples)
	if err != nil {
		return 0, nil, err
	}
	corpus, perSample = c.ciderD()
	return corpus, perSample, nil
}

func (c *captionCorpus) ciderD() (float64, []float64) {
	df := newCiderDF(c.refs)
	per := make([]float64, len(c.cands))
	var w ciderWork
	sum := 0.0
	for i, cand := range c.cands {
		per[i] = df.score(&w, cand, c.refs[i])
		sum += per[i]
	}
	return sum / float64(len(per)), per
}

// ciderDF holds the document frequencies of the n-grams of a set of
// reference sets and log N.
type ciderDF struct {
	df   map[ngramKey]int32
	logN float64
}

func newCiderDF(refSets [][][]int32) *ciderDF {
	d := &ciderDF{df: make(map[ngramKey]int32), logN: math.Log(float64(len(refSets)))}
	var all, buf []ngramCount
	for _, refs := range refSets {
		all = all[:0]
		for _, r := range refs {
			buf = countNgrams(buf, r)
			all = append(all, buf...)
		}
		sortNgramCounts(all)
		all = mergeCounts(all, func(a, b int32) int32 { return a })
		for _, g := range all {
			d.df[g.key]++
		}
	}
	return d
}

// ciderVec is the tf-idf vector of one sentence: its distinct n-grams
// (sorted), their weights, the norms per order and the coco-caption
// "length" (the number of bigrams).
type ciderVec struct {
	ngrams []ngramCount
	vals   []float64
	norm   [maxOrder]float64
	length int
}

// ciderWork is scratch space reused across scores.
type ciderWork struct {
	cand, ref ciderVec
}

// vector fills v with the tf-idf vector of ids.
func (d *ciderDF) vector(v *ciderVec, ids []int32) {
	v.ngrams = countNgrams(v.ngrams, ids)
	v.vals = v.vals[:0]
	v.norm = [maxOrder]float64{}
	v.length = 0
	for _, g := range v.ngrams {
		n := g.key.order() - 1
		x := float64(g.count) * (d.logN - math.Log(max(1, float64(d.df[g.key]))))
		v.vals = append(v.vals, x)
		v.norm[n] += x * x
		if n == 1 {
			v.length += int(g.count)
		}
	}
	for n := range v.norm {
		v.norm[n] = math.Sqrt(v.norm[n])
	}
}

// score is the CIDEr-D of cand against refs.
func (d *ciderDF) score(w *ciderWork, cand []int32, refs [][]int32) float64 {
	d.vector(&w.cand, cand)
	var total [maxOrder]float64
	for _, r := range refs {
		d.vector(&w.ref, r)
		sim := ciderSim(&w.cand, &w.ref)
		for n := range total {
			total[n] += sim[n]
		}
	}
	mean := 0.0
	for _, s := range total {
		mean += s
	}
	mean /= maxOrder
	return mean / float64(len(refs)) * 10
}

// ciderSim returns the clipped, length-penalised cosine similarity of the
// candidate vector h and reference vector r per n-gram order.
func ciderSim(h, r *ciderVec) [maxOrder]float64 {
	var val [maxOrder]float64
	j := 0
	for i, g := range h.ngrams {
		for j < len(r.ngrams) && ngramCompare(r.ngrams[j].key, g.key) < 0 {
			j++
		}
		if j < len(r.ngrams) && r.ngrams[j].key == g.key {
			vr := r.vals[j]
			val[g.key.order()-1] += min(h.vals[i], vr) * vr
		}
	}
	delta := float64(h.length - r.length)
	penalty := math.Exp(-(delta * delta) / (2 * ciderSigma * ciderSigma))
	for n := range val {
		if h.norm[n] != 0 && r.norm[n] != 0 {
			val[n] /= h.norm[n] * r.norm[n]
		}
		val[n] *= penalty
	}
	return val
}

// CIDErDScorer scores captions with CIDEr-D using document frequencies
// fixed when it is made (NewCIDErD). It is safe for concurrent use.
type CIDErDScorer struct {
	vocab map[string]int32
	df    *ciderDF
}

// NewCIDErD returns a CIDEr-D scorer whose document frequencies and N come
// from refSets: one entry per image, holding that image's tokenized
// reference captions. Self-critical training uses the training set's
// references; scoring the evaluated corpus's own references reproduces
// CIDErD. Every image needs at least one reference and every reference at
// least one token.
func NewCIDErD(refSets [][][]string) (*CIDErDScorer, error) {
	if len(refSets) == 0 {
		return nil, fmt.Errorf("%w: NewCIDErD needs reference sets", ErrNoSamples)
	}
	v := newCaptionVocab()
	ids := make([][][]int32, len(refSets))
	for i, refs := range refSets {
		if err := checkRefs(refs); err != nil {
			return nil, fmt.Errorf("%w (reference set %d)", err, i)
		}
		ids[i] = make([][]int32, len(refs))
		for j, r := range refs {
			ids[i][j] = v.intern(r)
		}
	}
	return &CIDErDScorer{vocab: v.ids, df: newCiderDF(ids)}, nil
}

// Score returns the CIDEr-D of the tokenized candidate against the
// tokenized references of its image. Words the scorer's reference sets
// never saw have document frequency 0.
func (s *CIDErDScorer) Score(cand []string, refs [][]string) (float64, error) {
	if err := checkRefs(refs); err != nil {
		return 0, err
	}
	var unseen map[string]int32
	ids := func(tokens []string) []int32 {
		out := make([]int32, len(tokens))
		for i, t := range tokens {
			id, ok := s.vocab[t]
			if !ok {
				if unseen == nil {
					unseen = make(map[string]int32)
				}
				if id, ok = unseen[t]; !ok {
					id = int32(len(s.vocab) + len(unseen))
					unseen[t] = id
				}
			}
			out[i] = id
		}
		return out
	}
	c := ids(cand)
	r := make([][]int32, len(refs))
	for j := range refs {
		r[j] = ids(refs[j])
	}
	var w ciderWork
	return s.df.score(&w, c, r), nil
}

// checkRefs reports whether refs holds at least one reference and no
// empty one.
func checkRefs(refs [][]string) error {
	if len(refs) == 0 {
		return ErrNoReferences
	}
	for j, r := range refs {
		if len(r) == 0 {
			return fmt.Errorf("%w: reference %d", ErrEmptyReference, j)
		}
	}
	return nil
}
