package speechlm

import (
	"fmt"

	"github.com/attend-go/attend/models/lm/ngram"
)

// LMScore is a word language model's perplexity on a text in the form
// the commands print it (the -json field names are the tags), with
// SRILM's conventions (see ngram.PerplexityResult).
type LMScore struct {
	Sentences       int     `json:"sentences"`
	Words           int     `json:"words"` // OOVs included, </s> not
	OOVs            int     `json:"oovs"`
	OOVRate         float64 `json:"oov_rate"`
	Log10Prob       float64 `json:"log10_prob"`        // OOVs left out
	Perplexity      float64 `json:"perplexity"`        // SRILM ppl: each </s> counted
	PerplexityNoEnd float64 `json:"perplexity_no_end"` // SRILM ppl1
}

// newLMScore converts r; nil when nothing was scored.
func newLMScore(r ngram.PerplexityResult) *LMScore {
	if r.Sentences == 0 {
		return nil
	}
	return &LMScore{r.Sentences, r.Words, r.OOVs, r.OOVRate(), r.Log10Prob, r.Perplexity, r.PerplexityNoEnd}
}

// String is the one-line text form.
func (s *LMScore) String() string {
	return fmt.Sprintf("%d sentences, %d words, %d OOVs (%.2f%%): log10 prob %.2f, perplexity %.2f (without </s>: %.2f)",
		s.Sentences, s.Words, s.OOVs, 100*s.OOVRate, s.Log10Prob, s.Perplexity, s.PerplexityNoEnd)
}
