package caption

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Sampled is a caption drawn by Sample.
type Sampled struct {
	Tokens []int // word ids, without Start and End
	// LogProb is log p(Tokens, End | image) under the model (without End
	// when unfinished), as search reports it: the model's full softmax,
	// not the distribution renormalized over the allowed tokens.
	LogProb float64
	// Finished reports that the caption ended with End; false when
	// MaxLength cut it.
	Finished bool
}

// Sample draws one caption per decoder row of e by ancestral sampling:
// at every step each open row draws its next token from
//
//	y_t ~ p(y | y_<t, a) restricted to the allowed tokens
//
// (never Pad or Start, nor Unk with opts.NoUnk; the allowed tokens'
// probabilities renormalized), until it draws End or has MaxLength words.
// Encode the images on k rows each to draw k captions per image: caption
// r is drawn on row r, image r/k. Only opts.MaxLength and opts.NoUnk
// apply; nil means the defaults. rng draws one number per open row and
// step, rows in order, so a seed fixes the captions. ws may be nil.
//
// This is the sampling of self-critical sequence training (Rennie et al.
// 2017): the decoder as eager inference runs it, without dropout.
func (m *Model) Sample(ws *Workspace, e *Encoded, rng *rand.Rand, opts *SearchOptions) ([]Sampled, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if e == nil || rng == nil {
		return nil, fmt.Errorf("%w: Sample needs encoded images and a random generator", ErrInput)
	}
	if ws == nil {
		ws = &Workspace{}
	}
	out := make([]Sampled, e.Keys.B)
	probs := make([]float64, m.Config.Vocab)
	err = m.unroll(ws, e, o.MaxLength,
		func(_ int, logp []float32) int { return draw(probs, logp, &o, rng.Float64()) },
		func(r, token int, lp float32, _ *State) {
			s := &out[r]
			s.LogProb += float64(lp)
			if token == End {
				s.Finished = true
				return
			}
			s.Tokens = append(s.Tokens, token)
		})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// draw returns the token whose cumulative probability first exceeds u·Z,
// Z the total probability of the allowed tokens of a row of
// log-probabilities; probs is scratch space of the row's length.
func draw(probs []float64, logp []float32, o *SearchOptions, u float64) int {
	var z float64
	last := -1
	for v, lp := range logp {
		probs[v] = 0
		if o.allowed(v) {
			probs[v] = math.Exp(float64(lp))
			z += probs[v]
			if probs[v] > 0 {
				last = v
			}
		}
	}
	if last < 0 { // every allowed token underflowed: take the likeliest
		return likeliest(logp, o)
	}
	target := u * z
	var c float64
	for v, p := range probs {
		c += p
		if c > target && p > 0 {
			return v
		}
	}
	return last // rounding left the target past the sum
}
