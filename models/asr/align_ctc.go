package asr

import (
	"errors"
	"fmt"
	"math"
)

// ErrNoCTC marks a request that needs the model's CTC head from a model
// trained without one.
var ErrNoCTC = errors.New("asr: the model has no CTC head")

// CTCPrefixLogProbs returns, for n = 0…len(tokens), the CTC head's
// log p(tokens[:n] | x): the probability that the whole utterance spells
// exactly the first n tokens and nothing after them (the sum over all
// alignments of blanks and repeats, Graves et al. 2006). Forced alignment
// of a long text uses it to decide how many words a chunk of the
// recording holds. Prefixes longer than the T encoder frames can emit are
// −∞ and not computed. Each prefix costs O(T): it extends the previous
// one as the CTC prefix scorer of beam search does (ctcprefix.go).
func (m *Model) CTCPrefixLogProbs(e *Encoded, tokens []int) ([]float64, error) {
	if e.CTCLogProbs == nil {
		return nil, ErrNoCTC
	}
	V := m.Vocab.Size()
	for i, tok := range tokens {
		if tok <= EOS || tok >= V {
			return nil, fmt.Errorf("%w: token %d at position %d, want 1..%d", ErrTokens, tok, i, V-1)
		}
	}
	if e.T < 1 || len(e.CTCLogProbs) < e.T*V {
		return nil, fmt.Errorf("asr: CTCPrefixLogProbs: encoded utterance of %d frames holds %d CTC values, want %d", e.T, len(e.CTCLogProbs), e.T*V)
	}
	c := &ctcPrefix{T: e.T, V: V, logp: e.CTCLogProbs}
	out := make([]float64, len(tokens)+1)
	g := c.initial()
	out[0] = c.extend(g, EOS).score
	for n, tok := range tokens {
		if n >= e.T {
			for i := n + 1; i < len(out); i++ {
				out[i] = math.Inf(-1)
			}
			break
		}
		g = c.extend(g, tok)
		out[n+1] = c.extend(g, EOS).score
	}
	return out, nil
}
