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
// with σ = 6, and 0 for an order n where either vector is 0.
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
	c.ngrams()
	df := newCiderDF(len(c.grams.local.order), c.refGrams)
	per := make([]float64, len(c.cands))
	var w ciderWork
	sum := 0.0
	for i, cand := range c.cands {
		per[i] = df.score(&w, c.grams, c.candGrams[i], len(cand), c.refGrams[i], c.refs[i])
		sum += per[i]
	}
	return sum / float64(len(per)), per
}

// ciderDF holds log N and the idf log N − log max(1, df) of the n-grams
// of a set of reference sets, by n-gram id.
type ciderDF struct {
	idf  []float64
	logN float64
}

// newCiderDF counts the document frequencies of n-grams 0…numGrams−1 in
// refSets (per image, per reference, the sentence's n-gram counts).
func newCiderDF(numGrams int, refSets [][][]gramCount) *ciderDF {
	df := make([]int32, numGrams)
	last := make([]int32, numGrams) // 1 + the last image counted for each n-gram
	for i, refs := range refSets {
		for _, r := range refs {
			for _, g := range r {
				if last[g.id] != int32(i+1) {
					last[g.id] = int32(i + 1)
					df[g.id]++
				}
			}
		}
	}
	d := &ciderDF{idf: make([]float64, numGrams), logN: math.Log(float64(len(refSets)))}
	for id, n := range df {
		d.idf[id] = d.logN - math.Log(max(1, float64(n)))
	}
	return d
}

// idfOf returns the idf of n-gram id; ids past the table's never occur in
// the references (df 0).
func (d *ciderDF) idfOf(id int32) float64 {
	if int(id) < len(d.idf) {
		return d.idf[id]
	}
	return d.logN
}

// ciderVec is the tf-idf vector of one sentence: its n-gram counts
// (sorted by id), their weights and the norm per order.
type ciderVec struct {
	grams []gramCount
	vals  []float64
	norm  [maxOrder]float64
}

// ciderWork is scratch space reused across scores.
type ciderWork struct {
	cand, ref ciderVec
}

// vector fills v with the tf-idf vector of a sentence's n-gram counts.
func (d *ciderDF) vector(v *ciderVec, g gramInterner, grams []gramCount) {
	v.grams = grams
	v.vals = v.vals[:0]
	v.norm = [maxOrder]float64{}
	for _, gc := range grams {
		x := float64(gc.count) * d.idfOf(gc.id)
		v.vals = append(v.vals, x)
		v.norm[g.order(gc.id)-1] += x * x
	}
	for n := range v.norm {
		v.norm[n] = math.Sqrt(v.norm[n])
	}
}

// score is the CIDEr-D of a candidate (n-gram counts, length in words)
// against its references.
func (d *ciderDF) score(w *ciderWork, g gramInterner, cand []gramCount, candLen int, refs [][]gramCount, refWords [][]int32) float64 {
	d.vector(&w.cand, g, cand)
	var total [maxOrder]float64
	for j, r := range refs {
		d.vector(&w.ref, g, r)
		sim := ciderSim(g, &w.cand, &w.ref, candLen-len(refWords[j]))
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
// candidate vector h and reference vector r per n-gram order, for a
// length difference of delta words.
func ciderSim(g gramInterner, h, r *ciderVec, delta int) [maxOrder]float64 {
	var val [maxOrder]float64
	j := 0
	for i, gc := range h.grams {
		for j < len(r.grams) && r.grams[j].id < gc.id {
			j++
		}
		if j < len(r.grams) && r.grams[j].id == gc.id {
			vr := r.vals[j]
			val[g.order(gc.id)-1] += min(h.vals[i], vr) * vr
		}
	}
	penalty := math.Exp(-float64(delta*delta) / (2 * ciderSigma * ciderSigma))
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
	grams *gramTable
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
	g := gramInterner{local: newGramTable(0)}
	grams := make([][][]gramCount, len(refSets))
	var scratch []int32
	for i, refs := range refSets {
		if err := checkRefs(refs); err != nil {
			return nil, fmt.Errorf("%w (reference set %d)", err, i)
		}
		grams[i] = make([][]gramCount, len(refs))
		for j, r := range refs {
			grams[i][j], scratch = g.gramCounts(nil, v.intern(r), scratch)
		}
	}
	return &CIDErDScorer{vocab: v.ids, grams: g.local, df: newCiderDF(len(g.local.order), grams)}, nil
}

// Score returns the CIDEr-D of the tokenized candidate against the
// tokenized references of its image. Words and n-grams the scorer's
// reference sets never saw have document frequency 0.
func (s *CIDErDScorer) Score(cand []string, refs [][]string) (float64, error) {
	if err := checkRefs(refs); err != nil {
		return 0, err
	}
	var unseen map[string]int32
	words := func(tokens []string) []int32 {
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
	g := gramInterner{base: s.grams, local: newGramTable(0)}
	var scratch []int32
	candWords := words(cand)
	candGrams, scratch := g.gramCounts(nil, candWords, scratch)
	refWords := make([][]int32, len(refs))
	refGrams := make([][]gramCount, len(refs))
	for j, r := range refs {
		refWords[j] = words(r)
		refGrams[j], scratch = g.gramCounts(nil, refWords[j], scratch)
	}
	var w ciderWork
	return s.df.score(&w, g, candGrams, len(candWords), refGrams, refWords), nil
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
