package caption

import (
	"fmt"
	"math"
	"slices"
)

// Repeated phrases ("a man sitting on a bench on a bench") are a known
// failure of maximum-likelihood decoders: once a phrase has been said its
// words stay likely, and beam search, which prefers likely words, says
// it again. Two remedies act on the log-probabilities search ranks by,
// before it picks the next word of a hypothesis y_1 … y_t:
//
//   - n-gram blocking (SearchOptions.NoRepeatNGram = n; Paulus et al.
//     2018, fairseq's and Hugging Face's no_repeat_ngram_size): a word w
//     is forbidden when y_{t−n+2} … y_t w already occurs in the
//     hypothesis, so no n-gram is said twice;
//   - a repetition penalty (SearchOptions.RepeatPenalty = p): every word
//     already in the hypothesis ranks p nats lower, log p(w) − p, as
//     if its probability were multiplied by e^−p (an additive
//     counterpart of Keskar et al. 2019's CTRL penalty on logits).
//
// Both change what the search ranks by (Hypothesis.Score), never the
// model's log-probabilities (Hypothesis.LogProb, TokenLogProbs).

// repeatAdjust is a change to one word's ranking log-probability: delta
// is −Inf for a blocked word, −RepeatPenalty for a repeated one.
type repeatAdjust struct {
	token int
	delta float64
}

// checkRepeat validates the repetition options.
func (o *SearchOptions) checkRepeat() error {
	if o.NoRepeatNGram < 0 || o.NoRepeatNGram > 100 {
		return fmt.Errorf("%w: SearchOptions.NoRepeatNGram = %d, want 0 (off) … 100", ErrInput, o.NoRepeatNGram)
	}
	if !(o.RepeatPenalty >= 0 && o.RepeatPenalty <= 100) {
		return fmt.Errorf("%w: SearchOptions.RepeatPenalty = %v, want 0 (off) … 100", ErrInput, o.RepeatPenalty)
	}
	return nil
}

// repeats reports whether the options act on repetitions at all.
func (o *SearchOptions) repeats() bool { return o.NoRepeatNGram > 0 || o.RepeatPenalty > 0 }

// repeatAdjusts appends to dst the adjustments of the next word after the
// hypothesis tokens (without Start): the words that would complete an
// n-gram already said (n = NoRepeatNGram) are blocked, the other words
// already said lose RepeatPenalty nats. A word appears at most once.
func (o *SearchOptions) repeatAdjusts(dst []repeatAdjust, tokens []int) []repeatAdjust {
	dst = dst[:0]
	add := func(v int, delta float64) {
		for i := range dst {
			if dst[i].token == v {
				dst[i].delta = min(dst[i].delta, delta)
				return
			}
		}
		dst = append(dst, repeatAdjust{token: v, delta: delta})
	}
	if n := o.NoRepeatNGram; n > 0 && len(tokens) >= n-1 {
		suffix := tokens[len(tokens)-(n-1):] // the n−1 last words
		for i := 0; i+n-1 < len(tokens); i++ {
			if slices.Equal(tokens[i:i+n-1], suffix) {
				add(tokens[i+n-1], math.Inf(-1))
			}
		}
	}
	if o.RepeatPenalty > 0 {
		for _, v := range tokens {
			add(v, -o.RepeatPenalty)
		}
	}
	return dst
}

// applyRepeats adds the adjustments to a row of log-probabilities, in
// place.
func applyRepeats(logp []float32, adj []repeatAdjust) {
	for _, a := range adj {
		logp[a.token] = float32(float64(logp[a.token]) + a.delta)
	}
}

// repeatDelta returns the adjustment of token v (0 for none).
func repeatDelta(adj []repeatAdjust, v int) float64 {
	for _, a := range adj {
		if a.token == v {
			return a.delta
		}
	}
	return 0
}

// RepeatsBigram reports whether words say some bigram (two consecutive
// words) twice: the repetition that caption evaluations count.
func RepeatsBigram(words []string) bool {
	seen := make(map[[2]string]bool, len(words))
	for i := 1; i < len(words); i++ {
		b := [2]string{words[i-1], words[i]}
		if seen[b] {
			return true
		}
		seen[b] = true
	}
	return false
}
