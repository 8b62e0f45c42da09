package asr

import (
	"fmt"
	"math"
	"slices"

	"github.com/attend-go/attend/attention"
)

// RowKeys prepares the attention keys of k decoder rows over one encoded
// utterance: its memory repeated k times (in ws; used as is for k = 1).
// A beam search of width k steps its rows over them.
func (m *Model) RowKeys(ws *Workspace, e *Encoded, k int) (*attention.Keys, error) {
	T, D := e.T, e.D
	mem := e.Memory[:T*D]
	if k > 1 {
		if cap(ws.rep) < k*T*D {
			ws.rep = make([]float32, k*T*D)
		}
		ws.rep = ws.rep[:k*T*D]
		for r := range k {
			copy(ws.rep[r*T*D:], mem)
		}
		mem = ws.rep
	}
	keys, err := m.Speller.Attention.Prepare(mem, nil, k, T)
	if err != nil {
		return nil, fmt.Errorf("asr: %w", err)
	}
	return keys, nil
}

// ForceBatch forces k transcripts through the speller at once (teacher
// forcing, one decoder row each; Align is its k = 1) and returns each one's
// Forced: per-token attention rows and log-probabilities, and the
// log-probability of the end of sentence after it.
func (m *Model) ForceBatch(ws *Workspace, e *Encoded, hyps [][]int) ([]*Forced, error) {
	k, T, V := len(hyps), e.T, m.Vocab.Size()
	if k == 0 {
		return nil, nil
	}
	keys, err := m.RowKeys(ws, e, k)
	if err != nil {
		return nil, err
	}
	out := make([]*Forced, k)
	longest := 0
	for r, h := range hyps {
		out[r] = &Forced{Tokens: slices.Clone(h), Alignment: make([][]float32, len(h)), LogProbs: make([]float32, len(h))}
		longest = max(longest, len(h))
	}
	cur, next := m.Speller.Start(k), m.Speller.Start(k)
	prev := make([]int, k) // EOS first
	for i := 0; i <= longest; i++ {
		logp, err := m.StepLogProbs(ws, next, cur, keys, prev)
		if err != nil {
			return nil, fmt.Errorf("asr: speller step %d: %w", i, err)
		}
		for r, h := range hyps {
			if i > len(h) {
				continue
			}
			lp := logp[r*V : (r+1)*V]
			if i == len(h) {
				out[r].EndLogProb = lp[EOS]
				prev[r] = EOS
				continue
			}
			out[r].Alignment[i] = slices.Clone(next.Attention.Weights[r*T : (r+1)*T])
			out[r].LogProbs[i] = lp[h[i]]
			prev[r] = h[i]
		}
		cur, next = next, cur
	}
	return out, nil
}

// StepLogProbs runs one speller step for the k rows of cur (as
// Speller.Step, in ws) and returns the log-probabilities of the next
// token, (k, V) row-major, in ws's memory until the next call: the
// searches' view of the speller.
func (m *Model) StepLogProbs(ws *Workspace, next, cur *SpellerState, keys *attention.Keys, tokens []int) ([]float32, error) {
	k, V := len(tokens), m.Vocab.Size()
	logits, err := m.Speller.Step(&ws.dec, next, cur, keys, tokens)
	if err != nil {
		return nil, err
	}
	ws.logp = append(ws.logp[:0], logits[:k*V]...)
	for r := range k {
		logSoftmax(ws.logp[r*V : (r+1)*V])
	}
	return ws.logp, nil
}

// logSoftmax normalizes x in place to log-probabilities, accumulating
// in float64.
func logSoftmax(x []float32) {
	mx := float32(math.Inf(-1))
	for _, v := range x {
		mx = max(mx, v)
	}
	s := 0.0
	for _, v := range x {
		s += math.Exp(float64(v - mx))
	}
	l := mx + float32(math.Log(s))
	for i := range x {
		x[i] -= l
	}
}
