package decode

import (
	"errors"
	"fmt"
	"math"

	"github.com/attend-go/attend/models/asr"
)

var (
	// ErrTooShort marks a transcript that CTC cannot fit into the frames
	// it is given: CTC emits at most one token a frame, and a repeated
	// token needs a blank between its copies.
	ErrTooShort = errors.New("decode: audio too short for the transcript")
)

// CTCSplit places cuts in a transcript: given the CTC log-probabilities
// (T, V) of a whole recording (blank = EOS), its transcript tokens and
// frame indices cuts (increasing, in 1…T−1; a cut at b separates frames
// b−1 and b), it returns for each cut the number of tokens that the most
// likely CTC alignment of the whole transcript (the Viterbi path, Graves
// et al. 2006) emits before it. A long recording decoded in chunks thus
// gets its text shared out among them: the path must spell every token
// somewhere, so unlike a decision per chunk it cannot leave words out
// (CTC segmentation, Kürzinger et al. 2020, does the same for corpora).
// A token whose frames span a cut counts before it.
//
// It runs the Viterbi recursion forward and backward over the 2L+1
// states of the blank-interleaved transcript and, at each cut, takes the
// state of largest forward + backward score: O(T·L) time (about a second
// for ten minutes of speech: 10,000 frames, 9,000 characters) and
// 4·(2L+1) bytes per cut. It fails with ErrTooShort when no alignment
// exists.
func CTCSplit(logp []float32, T, V int, tokens []int, cuts []int) ([]int, error) {
	if err := checkSplit(logp, T, V, tokens, cuts); err != nil {
		return nil, err
	}
	g := newCTCStates(tokens)
	atCut, ok := g.forward(logp, T, V, cuts)
	if !ok {
		return nil, fmt.Errorf("%w: %d tokens need more than its %d frames", ErrTooShort, len(tokens), T)
	}
	out := g.backward(logp, T, V, cuts, atCut)
	for i := 1; i < len(out); i++ {
		out[i] = max(out[i], out[i-1])
	}
	return out, nil
}

// checkSplit validates CTCSplit's arguments.
func checkSplit(logp []float32, T, V int, tokens []int, cuts []int) error {
	if T < 1 || V < 2 || len(logp) < T*V {
		return fmt.Errorf("decode: CTCSplit: %d log-probabilities for %d frames of %d classes", len(logp), T, V)
	}
	for i, tok := range tokens {
		if tok <= asr.EOS || tok >= V {
			return fmt.Errorf("%w: token %d at position %d, want 1..%d", asr.ErrTokens, tok, i, V-1)
		}
	}
	for i, b := range cuts {
		if b < 1 || b >= T || (i > 0 && b <= cuts[i-1]) {
			return fmt.Errorf("decode: CTCSplit: cuts %v, want increasing frames in 1..%d", cuts, T-1)
		}
	}
	return nil
}

// ctcStates are the 2L+1 states of a blank-interleaved transcript:
// label[s] is state s's class (blanks between and around the tokens);
// skip[s] says whether s may be entered from s−2, jumping the blank
// between two different tokens.
type ctcStates struct {
	label []int
	skip  []bool
}

func newCTCStates(tokens []int) ctcStates {
	S := 2*len(tokens) + 1
	g := ctcStates{label: make([]int, S), skip: make([]bool, S)}
	for s := 1; s < S; s += 2 {
		g.label[s] = tokens[s/2]
		g.skip[s] = s >= 3 && tokens[s/2] != tokens[s/2-1]
	}
	return g
}

// forward runs the Viterbi recursion forward (cur[s]: the best path over
// frames 0…t ending in state s) and returns its scores at the frame
// before each cut; ok is false when no path spells the whole transcript.
func (g ctcStates) forward(logp []float32, T, V int, cuts []int) (atCut [][]float32, ok bool) {
	S := len(g.label)
	inf := math.Inf(-1)
	cur, next := make([]float64, S), make([]float64, S)
	atCut = make([][]float32, len(cuts)) // forward scores at frames b−1
	c := 0
	for s := range cur {
		cur[s] = inf
	}
	cur[0] = float64(logp[asr.EOS])
	if S > 1 {
		cur[1] = float64(logp[g.label[1]])
	}
	for t := 0; ; t++ {
		if c < len(cuts) && cuts[c] == t+1 {
			atCut[c] = make([]float32, S)
			for s, v := range cur {
				atCut[c][s] = float32(v)
			}
			c++
		}
		if t == T-1 {
			break
		}
		row := logp[(t+1)*V : (t+2)*V]
		next[0] = cur[0] + float64(row[asr.EOS])
		for s := 1; s < S; s++ {
			best := max(cur[s], cur[s-1])
			if g.skip[s] {
				best = max(best, cur[s-2])
			}
			next[s] = best + float64(row[g.label[s]])
		}
		cur, next = next, cur
	}
	end := max(cur[S-1], cur[max(S-2, 0)])
	return atCut, !math.IsInf(end, -1)
}

// backward runs the recursion backward (cur[s]: the best continuation
// over frames t+1…T−1 from state s at frame t, ending in the last token or
// the blank after it) and returns, per cut, the tokens emitted by the
// state of largest forward + backward score.
func (g ctcStates) backward(logp []float32, T, V int, cuts []int, atCut [][]float32) []int {
	S := len(g.label)
	inf := math.Inf(-1)
	cur, next := make([]float64, S), make([]float64, S)
	for s := range cur {
		cur[s] = inf
	}
	cur[S-1] = 0
	if S > 1 {
		cur[S-2] = 0
	}
	out := make([]int, len(cuts))
	c := len(cuts) - 1
	for t := T - 1; c >= 0; t-- {
		if cuts[c] == t+1 {
			best := 0
			for s := range S {
				if float64(atCut[c][s])+cur[s] > float64(atCut[c][best])+cur[best] {
					best = s
				}
			}
			out[c] = (best + 1) / 2 // tokens emitted by state best
			c--
		}
		// With e[s] = cur[s] + y_t(label[s]), the score of entering s
		// at frame t: next[s] = max(e[s], e[s+1], e[s+2] if skip[s+2]).
		row := logp[t*V : (t+1)*V]
		for s := range S {
			next[s] = cur[s] + float64(row[g.label[s]])
		}
		for s := 0; s < S-1; s++ {
			best := max(next[s], next[s+1])
			if s+2 < S && g.skip[s+2] {
				best = max(best, next[s+2])
			}
			next[s] = best
		}
		cur, next = next, cur
	}
	return out
}
