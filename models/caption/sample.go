package caption

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/attend-go/attend/models"
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
	B, V := e.Keys.B, m.Config.Vocab
	cur, next := m.Start(e), &State{}
	out := make([]Sampled, B)
	tokens := make([]int, B)
	for r := range tokens {
		tokens[r] = Start
	}
	probs := make([]float64, V)
	open := B
	for t := 0; t < o.MaxLength && open > 0; t++ {
		logp, err := m.Step(ws, next, cur, e, tokens)
		if err != nil {
			return nil, err
		}
		for r := range out {
			s := &out[r]
			if s.Finished {
				continue
			}
			row := logp[r*V : (r+1)*V]
			y := draw(probs, row, &o, rng.Float64())
			s.LogProb += float64(row[y])
			if y == End {
				s.Finished = true
				tokens[r] = models.PadID // the row idles
				open--
				continue
			}
			s.Tokens = append(s.Tokens, y)
			tokens[r] = y
		}
		cur, next = next, cur
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
		best := -1
		for v, lp := range logp {
			if o.allowed(v) && (best < 0 || lp > logp[best]) {
				best = v
			}
		}
		return best
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
