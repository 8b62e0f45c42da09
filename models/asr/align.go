package asr

import (
	"errors"
	"fmt"
)

// ErrTokens marks a forced transcript the model cannot spell: a token id
// out of the vocabulary, or EOS inside it.
var ErrTokens = errors.New("asr: invalid tokens")

// Forced is a known transcript forced through the speller (teacher
// forcing): step i reads the reference character i−1 (EOS before the
// first) instead of the model's own guess, so its attention shows where
// the model hears the reference character i.
type Forced struct {
	Tokens []int // the reference, without EOS
	// Alignment holds, per token, its attention weights over the T
	// encoder frames (each row sums to 1), as Result.Alignment does.
	Alignment [][]float32
	// LogProbs holds log p(token_i | tokens_<i, x) per token: low values
	// mark characters the model does not hear where it looked.
	LogProbs []float32
	// EndLogProb is log p(EOS | tokens, x): the model's belief that the
	// utterance ends after the reference.
	EndLogProb float32
}

// LogLikelihood is log p(tokens, EOS | x), the sum of the per-token
// log-probabilities and EndLogProb.
func (f *Forced) LogLikelihood() float64 {
	s := float64(f.EndLogProb)
	for _, lp := range f.LogProbs {
		s += float64(lp)
	}
	return s
}

// Align forces tokens (a normalized transcript encoded with Vocab, without
// EOS) through the speller over an encoded utterance and returns each
// token's attention weights and log-probability. It runs the eager
// speller with batch 1, as Decode does, and matches the training graph's
// teacher-forced forward (Speller.Unroll) step for step; the
// last step, which reads the last token, gives EndLogProb. An empty
// transcript has only that step.
func (m *Model) Align(ws *Workspace, e *Encoded, tokens []int) (*Forced, error) {
	V := m.Vocab.Size()
	for i, tok := range tokens {
		if tok <= EOS || tok >= V {
			return nil, fmt.Errorf("%w: token %d at position %d, want 1..%d", ErrTokens, tok, i, V-1)
		}
	}
	T, D := e.T, e.D
	if T < 1 || len(e.Memory) < T*D {
		return nil, fmt.Errorf("asr: Align: encoded utterance of %d frames holds %d values, want %d", T, len(e.Memory), T*D)
	}
	f, err := m.ForceBatch(ws, e, [][]int{tokens})
	if err != nil {
		return nil, err
	}
	return f[0], nil
}
