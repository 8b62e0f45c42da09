package decode

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/models/asr"
)

// pick returns the best finished hypothesis by length-normalized score,
// or the best unfinished one when none finished.
func pick(m *asr.Model, finished, active []*hypothesis, o Options) *Result {
	pool := finished
	if len(pool) == 0 {
		pool = active
	}
	if len(pool) == 0 {
		return &Result{}
	}
	norm := func(h *hypothesis) float64 {
		return h.score / math.Pow(float64(len(h.tokens)+1), o.LengthPenalty)
	}
	best := pool[0]
	for _, h := range pool[1:] {
		if norm(h) > norm(best) {
			best = h
		}
	}
	r := &Result{Tokens: best.tokens, Text: m.Vocab.Decode(best.tokens), Score: norm(best), Alignment: best.align, LogProbs: best.logp}
	if !best.finished {
		r.Fallback = "no end of sentence"
	}
	return r
}

// broken says why an attention transcript looks like a decoding failure,
// or returns "": no hypothesis reached the end of sentence (a loop), or
// its length disagrees grossly with the CTC head's best path (a loop or an
// early stop).
func broken(m *asr.Model, r *Result, finished []*hypothesis, e *asr.Encoded) string {
	if len(finished) == 0 {
		return fmt.Sprintf("attention reached no end of sentence within %d characters", len(r.Tokens))
	}
	if e.CTCLogProbs == nil {
		return ""
	}
	ctc := len(m.CTCGreedy(e))
	if d := len(r.Tokens) - ctc; d > max(8, ctc/2) || -d > max(8, ctc/2) {
		return fmt.Sprintf("attention output has %d characters where CTC finds %d", len(r.Tokens), ctc)
	}
	return ""
}

// ctcResult is the CTC best path, each token aligned to the frame that
// emitted it.
func ctcResult(m *asr.Model, e *asr.Encoded, reason string) *Result {
	V := m.Vocab.Size()
	r := &Result{Fallback: reason}
	prev := asr.EOS
	for t := range e.T {
		row := e.CTCLogProbs[t*V : (t+1)*V]
		best := 0
		for v := range row {
			if row[v] > row[best] {
				best = v
			}
		}
		r.Score += float64(row[best])
		if best != asr.EOS && best != prev {
			r.Tokens = append(r.Tokens, best)
			one := make([]float32, e.T)
			one[t] = 1
			r.Alignment = append(r.Alignment, one)
			r.LogProbs = append(r.LogProbs, row[best])
		}
		prev = best
	}
	r.Text = m.Vocab.Decode(r.Tokens)
	return r
}
