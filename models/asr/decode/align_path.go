package decode

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/models/asr"
)

// attentionFloor keeps frames of (numerically) zero attention weight on
// the table in MonotonicFrames: log(α + floor) is finite, so a path may
// cross such a frame when the other evidence insists, at a heavy cost.
const attentionFloor = 1e-8

// MonotonicFrames returns, per token, the encoder frame where the token is
// heard: the non-decreasing path t_0 ≤ t_1 ≤ … ≤ t_{n−1} that maximizes
//
//	Σ_i log(α_i(t_i) + ε) + log y_{t_i}(c_i)
//
// over alignment α (one row of T weights per token, as asr.Forced.Alignment
// and Result.Alignment hold) and, with a CTC head, its posteriors y
// (Encoded.CTCLogProbs) of token c_i at frame t_i; ε = 1e-8. Several
// tokens may share a frame (speech runs at about one character per 60 ms
// frame).
//
// Reading each row's peak instead fails on two things attention does on
// inputs unlike its training data, both seen on words separated by long
// pauses: a row with a second peak far away (which wrongly stretches a
// word and pushes the next ones), and a speller that runs a word ahead
// of the audio across a pause and catches up later. The monotonic path
// removes the first; the CTC posteriors, which peak only where a
// character is emitted, correct the second. The two heads are trained
// jointly on the same encoder frames and weigh equally: the path is the
// most likely one under the product of their per-frame distributions.
// It costs O(n·T).
func MonotonicFrames(m *asr.Model, e *asr.Encoded, tokens []int, alignment [][]float32) ([]int, error) {
	n, T, V := len(tokens), e.T, m.Vocab.Size()
	if err := checkRows(e, V, tokens, alignment); err != nil {
		return nil, err
	}
	ctc := e.CTCLogProbs
	if n == 0 {
		return []int{}, nil
	}
	// score[t] is the best path of tokens 0…i ending with t_i = t; back
	// holds each token's best previous frame (the argmax of the running
	// maximum over t' ≤ t).
	score, prev := make([]float64, T), make([]float64, T)
	back := make([]int32, n*T)
	for i := range n {
		bestAt := 0
		for t := range T {
			s := math.Log(float64(alignment[i][t]) + attentionFloor)
			if ctc != nil {
				s += float64(ctc[t*V+tokens[i]])
			}
			if i > 0 {
				if prev[t] > prev[bestAt] {
					bestAt = t
				}
				s += prev[bestAt]
				back[i*T+t] = int32(bestAt)
			}
			score[t] = s
		}
		score, prev = prev, score
	}
	end := 0
	for t := range T {
		if prev[t] > prev[end] {
			end = t
		}
	}
	frames := make([]int, n)
	for i := n - 1; i >= 0; i-- {
		frames[i] = end
		end = int(back[i*T+end])
	}
	return frames, nil
}

// checkRows validates MonotonicFrames' arguments for a vocabulary of V.
func checkRows(e *asr.Encoded, V int, tokens []int, alignment [][]float32) error {
	n, T := len(tokens), e.T
	if len(alignment) != n {
		return fmt.Errorf("decode: MonotonicFrames: %d alignment rows for %d tokens", len(alignment), n)
	}
	for i, row := range alignment {
		if len(row) != T {
			return fmt.Errorf("decode: MonotonicFrames: alignment row %d has %d frames, want %d", i, len(row), T)
		}
		if tokens[i] < 0 || tokens[i] >= V {
			return fmt.Errorf("%w: token %d at position %d, want 0..%d", asr.ErrTokens, tokens[i], i, V-1)
		}
	}
	if ctc := e.CTCLogProbs; ctc != nil && len(ctc) < T*V {
		return fmt.Errorf("decode: MonotonicFrames: %d CTC values for %d frames", len(ctc), T)
	}
	return nil
}
