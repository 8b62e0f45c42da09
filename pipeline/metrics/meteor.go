package metrics

import (
	"errors"
	"fmt"
	"math"
)

// ErrMETEOROptions: a METEOROptions field is out of range.
var ErrMETEOROptions = errors.New("metrics: invalid METEOR options")

// METEOROptions sets METEOR's parameters. A nil *METEOROptions, and any
// zero field, means the default of Meteor 1.5 for English (its "default"
// task, which is "rank": Denkowski and Lavie 2014), the version and
// settings of the COCO caption evaluation:
//
//	Fmean   = P·R / (α·P + (1−α)·R)
//	Penalty = γ · (chunks/matches)^β
//	METEOR  = Fmean · (1 − Penalty)
//
// METEOR2005 holds the parameters of the original metric (Banerjee and
// Lavie 2005: Fmean = 10PR/(R+9P), Penalty = 0.5·(chunks/matches)³),
// which NLTK's meteor_score also uses.
type METEOROptions struct {
	Alpha      float64 // α in (0, 1]: weight of recall against precision; 0 means 0.85
	Beta       float64 // β > 0: exponent of the fragmentation penalty; 0 means 0.20
	Gamma      float64 // γ in (0, 1]: largest fragmentation penalty; 0 means 0.60
	StemWeight float64 // credit in (0, 1] of a stem match (an exact match earns 1); 0 means 0.60
	ExactOnly  bool    // match identical words only, no stems
}

// METEOR2005 are the parameters of Banerjee and Lavie (2005): α = 0.9,
// β = 3, γ = 0.5, and a stem match earning as much as an exact one.
var METEOR2005 = METEOROptions{Alpha: 0.9, Beta: 3, Gamma: 0.5, StemWeight: 1}

// meteorParams are METEOROptions with the defaults filled in.
type meteorParams struct {
	alpha, beta, gamma, stemWeight float64
	stems                          bool
}

// meteorDefaults are Meteor 1.5's English parameters.
var meteorDefaults = meteorParams{alpha: 0.85, beta: 0.20, gamma: 0.60, stemWeight: 0.60, stems: true}

// params checks o and fills in the defaults.
func (o *METEOROptions) params() (meteorParams, error) {
	p := meteorDefaults
	if o == nil {
		return p, nil
	}
	// set stores v in dst unless it is 0 (default); v must lie in
	// (0, hi], hi = +Inf meaning any finite positive value.
	set := func(dst *float64, v float64, name string, hi float64) error {
		switch {
		case v == 0:
			return nil
		case math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > hi:
			want := "a finite value > 0"
			if !math.IsInf(hi, 1) {
				want = fmt.Sprintf("a value in (0, %v]", hi)
			}
			return fmt.Errorf("%w: %s = %v, want %s", ErrMETEOROptions, name, v, want)
		}
		*dst = v
		return nil
	}
	if err := errors.Join(
		set(&p.alpha, o.Alpha, "Alpha", 1),
		set(&p.beta, o.Beta, "Beta", math.Inf(1)),
		set(&p.gamma, o.Gamma, "Gamma", 1),
		set(&p.stemWeight, o.StemWeight, "StemWeight", 1),
	); err != nil {
		return p, err
	}
	p.stems = !o.ExactOnly
	return p, nil
}

// METEOR returns METEOR (Banerjee and Lavie 2005; Denkowski and Lavie
// 2014) over the samples, following Meteor 1.5 (meteor-1.5.jar, as the
// COCO caption evaluation runs it: "-l en -norm") with its exact and stem
// matchers only.
//
// Alignment. Each candidate word may match one reference word: an exact
// match joins identical words, a stem match different words with equal
// Porter stems. Among the one-to-one alignments the jar's search is
// reproduced: matches that are the only option for both of their words
// are fixed first, then a beam search (width 40) over the reference words
// left to right keeps the alignments with most matches, then fewest
// chunks, then least distance. A chunk is a run of matches adjacent and in
// the same order in both sentences; the "most matches" key is the jar's
// integer sum of matches weighted 1 (exact) and 0.5 (stem), which
// truncates to counting the exact matches only. The search costs
// O(40·c·r) for sentences of c and r words in the worst case (one word
// repeated throughout), microseconds for captions.
//
// Score. With m_e exact and m_s stem matches, w the stem weight, c and r
// the candidate and reference lengths and ch the number of chunks,
// P = (m_e + w·m_s)/c, R = (m_e + w·m_s)/r, frag = ch/(m_e + m_s) (0 when
// every word of both sentences is matched in one chunk), and
// METEOR = Fmean·(1 − γ·frag^β) as METEOROptions describes, 0 when there
// is no match. A sample's score is that of its best-scoring reference
// (the first on a tie); perSample holds them in input order.
//
// Corpus score. As the jar's EVAL line, which the COCO evaluation
// reports, the corpus score is not the mean of sample scores: the
// statistics of each sample's best reference (lengths, matches, and the
// chunks of samples not matched perfectly) are summed over the corpus and
// the formula is applied once to the sums. (Flickr8k dev, caption #0
// against #1–#4: 0.2515 aggregated, 0.2581 as a mean.)
//
// Differences from the jar:
//
//   - No synonym (WordNet synsets, weight 0.8) or paraphrase (weight 0.6)
//     matching. Those only add matches, so scores here are typically
//     lower than the jar's on the same captions.
//   - No function-word weighting: the jar weighs words of its English
//     function-word list by 1 − δ = 0.25 and the others by δ = 0.75 in P
//     and R; here every word counts as a content word, which makes δ
//     cancel out. This moves scores either way.
//   - Porter's stemmer (1980) instead of the jar's Snowball English
//     ("Porter2"). Over the 8,293 words of the Flickr8k captions, 3,627
//     pairs of different words share a stem under both, 43 under Porter
//     only and 126 under Snowball only.
//   - The jar's own normalization (-norm) is left to the tokenization
//     of the samples (Tokenize).
//
// Apart from these, the alignments and scores equal the jar code's,
// sample by sample (TestCaptionMETEORGoldenJar). Scores are fractions in
// [0, 1].
func METEOR(samples []Sample, opts *METEOROptions) (corpus float64, perSample []float64, err error) {
	p, err := opts.params()
	if err != nil {
		return 0, nil, err
	}
	c, err := newCaptionCorpus(samples)
	if err != nil {
		return 0, nil, err
	}
	corpus, perSample = c.meteorWith(p)
	return corpus, perSample, nil
}

func (c *captionCorpus) meteorWith(p meteorParams) (float64, []float64) {
	best, per := c.meteorBest(p)
	var total meteorStats
	for _, s := range best {
		total.add(s)
	}
	return total.score(p), per
}

// meteorBest returns for every sample the statistics and score of its
// best-scoring reference.
func (c *captionCorpus) meteorBest(p meteorParams) ([]meteorStats, []float64) {
	stems := c.stemIDs()
	var a meteorAligner
	best := make([]meteorStats, len(c.cands))
	per := make([]float64, len(c.cands))
	for i, cand := range c.cands {
		per[i] = -1
		for _, ref := range c.refs[i] {
			s := a.align(cand, ref, stems, p.stems)
			if score := s.score(p); score > per[i] {
				best[i], per[i] = s, score
			}
		}
	}
	return best, per
}

// stemIDs maps every word id of the corpus to an id of its Porter stem.
func (c *captionCorpus) stemIDs() []int32 {
	byStem := make(map[string]int32)
	out := make([]int32, len(c.vocab.words))
	for i, w := range c.vocab.words {
		s := porterStem(w)
		id, ok := byStem[s]
		if !ok {
			id = int32(len(byStem))
			byStem[s] = id
		}
		out[i] = id
	}
	return out
}

// meteorStats are Meteor's sufficient statistics of an alignment (or,
// summed, of a corpus). With unigram matchers the matches are the same
// on both sides.
type meteorStats struct {
	candLen, refLen int
	exact, stem     int // words matched by each module
	chunks          int
}

// perfect reports whether every word of both sentences is matched, in
// one chunk (the jar then sets the fragmentation to 0).
func (s meteorStats) perfect() bool {
	m := s.exact + s.stem
	return m == s.candLen && m == s.refLen && s.chunks == 1
}

// add sums o into s as the jar's MeteorStats.addStats does: the chunks of
// a perfectly matched segment are left out.
func (s *meteorStats) add(o meteorStats) {
	s.candLen += o.candLen
	s.refLen += o.refLen
	s.exact += o.exact
	s.stem += o.stem
	if !o.perfect() {
		s.chunks += o.chunks
	}
}

// score is the jar's MeteorScorer.computeMetrics with no function words,
// operation for operation (δ included, although it cancels) so that the
// floating-point results agree.
func (s meteorStats) score(p meteorParams) float64 {
	const delta = 0.75
	matched := float64(s.exact)*1.0*delta + float64(s.stem)*p.stemWeight*delta
	precision := matched / (delta * float64(s.candLen))
	recall := matched / (delta * float64(s.refLen))
	fMean := 1.0 / ((1.0-p.alpha)/precision + p.alpha/recall)
	frag := 0.0
	if !s.perfect() {
		words := float64(s.exact + s.stem)
		frag = float64(s.chunks) / ((words + words) / 2)
	}
	score := fMean * (1.0 - p.gamma*math.Pow(frag, p.beta))
	if math.IsNaN(score) {
		return 0
	}
	return max(score, 0)
}
