package ngram

import "math"

// Log10Prob returns the log10 probability of the sentence <s> words </s>:
// Σ log10 p(w_i | history) over the words and </s>, in base 10 as ARPA
// tools print it. Each word outside the vocabulary is scored as <unk> (so
// a model without a trained <unk> charges it −100, KenLM's convention)
// and counted in oovs; the history then goes on through <unk>.
func (m *Model) Log10Prob(words []string) (log10p float64, oovs int) {
	s := int32(m.Begin())
	for _, w := range words {
		id, ok := m.ids[w]
		if !ok {
			id = m.unk
			oovs++
		}
		lp, c := m.score(s, int32(id))
		log10p += float64(lp)
		s = int32(m.stateOf(c))
	}
	lp, _ := m.score(s, int32(m.eos))
	return log10p + float64(lp), oovs
}

// PerplexityResult sums up a model on a text, with SRILM's conventions
// (ngram -ppl): words outside the vocabulary (OOVs) are left out of both
// the log probability and the counts.
type PerplexityResult struct {
	Sentences int // sentences scored
	Words     int // words, OOVs included, </s> not
	OOVs      int // words outside the vocabulary
	// Log10Prob sums log10 p over the in-vocabulary words and each </s>.
	Log10Prob float64
	// Perplexity = 10^(−Log10Prob / (Words − OOVs + Sentences)), counting
	// the </s> tokens (SRILM's "ppl").
	Perplexity float64
	// PerplexityNoEnd = 10^(−Log10Prob / (Words − OOVs)), the same log
	// probability over the words alone (SRILM's "ppl1"). Either is 0
	// where its count is 0.
	PerplexityNoEnd float64
}

// OOVRate returns OOVs / Words (0 for no words).
func (r PerplexityResult) OOVRate() float64 {
	if r.Words == 0 {
		return 0
	}
	return float64(r.OOVs) / float64(r.Words)
}

// Perplexity scores sentences, each a slice of words without <s> and
// </s>. An OOV is skipped in the sum, and the words after it are scored
// in the context of <unk>.
func (m *Model) Perplexity(sentences [][]string) PerplexityResult {
	var r PerplexityResult
	for _, sent := range sentences {
		s := int32(m.Begin())
		for _, w := range sent {
			id, ok := m.ids[w]
			if !ok {
				id = m.unk
				r.OOVs++
			}
			lp, c := m.score(s, int32(id))
			if ok {
				r.Log10Prob += float64(lp)
			}
			s = int32(m.stateOf(c))
		}
		lp, _ := m.score(s, int32(m.eos))
		r.Log10Prob += float64(lp)
		r.Words += len(sent)
		r.Sentences++
	}
	r.Perplexity = pow10PerToken(r.Log10Prob, r.Words-r.OOVs+r.Sentences)
	r.PerplexityNoEnd = pow10PerToken(r.Log10Prob, r.Words-r.OOVs)
	return r
}

// pow10PerToken returns 10^(−log10p / n), or 0 for n = 0.
func pow10PerToken(log10p float64, n int) float64 {
	if n <= 0 {
		return 0
	}
	return math.Pow(10, -log10p/float64(n))
}
