package speechmodel

import (
	"fmt"
	"math"
	"strings"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
)

// shareRadius is how many words the speller may move each boundary
// between two chunks away from where the CTC alignment put it.
const shareRadius = 2

// shareWords returns how many of words, in order, each chunk holds: all
// of them for a single chunk. For several, the CTC alignment of the whole
// text to the whole recording proposes the boundaries (ctcShare) and the
// speller settles them (settleShare). A boundary falls only before a word
// b where cut[b] is true (cut has len(words)+1 entries, nil means
// anywhere): a word as written, "1999", may be several normalized words
// that one chunk must hold.
func (t *lasTranscriber) shareWords(chunks []*encodedChunk, words []string, cut []bool) ([]int, error) {
	if len(chunks) == 1 {
		return []int{len(words)}, nil
	}
	if t.Model.CTC == nil {
		return nil, fmt.Errorf("the audio is longer than one chunk, and sharing the text out among chunks needs a model with a CTC head: %w", asr.ErrNoCTC)
	}
	counts, err := t.ctcShare(chunks, words)
	if err != nil {
		return nil, err
	}
	return t.settleShare(chunks, words, snapShare(counts, cut), cut)
}

// snapShare moves each boundary of counts to the nearest place where cut
// allows one (the earlier of two as near), keeping them in order.
func snapShare(counts []int, cut []bool) []int {
	if cut == nil {
		return counts
	}
	out := make([]int, len(counts))
	at, prev := 0, 0 // the proposed boundary, and the last one placed
	for i, n := range counts[:len(counts)-1] {
		at += n
		b := at
		for d := 0; d < len(cut); d++ {
			if lo := at - d; lo >= prev && lo < len(cut) && cut[lo] {
				b = lo
				break
			}
			if hi := at + d; hi >= prev && hi < len(cut) && cut[hi] {
				b = hi
				break
			}
		}
		out[i], prev = b-prev, b
	}
	out[len(out)-1] = len(cut) - 1 - prev
	return out
}

// ctcShare shares words out by the most likely CTC alignment of the
// whole text to the whole recording (decode.CTCSplit): a word goes to the
// chunk that holds its middle character.
func (t *lasTranscriber) ctcShare(chunks []*encodedChunk, words []string) ([]int, error) {
	V := t.Model.Vocab.Size()
	var (
		logp []float32
		cuts []int
	)
	for i, c := range chunks {
		if i > 0 {
			cuts = append(cuts, len(logp)/V)
		}
		logp = append(logp, c.enc.CTCLogProbs...)
	}
	tokens, err := t.Model.Vocab.Encode(strings.Join(words, " "))
	if err != nil {
		return nil, err
	}
	before, err := decode.CTCSplit(logp, len(logp)/V, V, tokens, cuts)
	if err != nil {
		return nil, err
	}
	counts := make([]int, len(chunks))
	k, pos := 0, 0 // words placed, and the first character of word k
	for i, n := range before {
		for k < len(words) && 2*pos+len(words[k]) <= 2*n { // middle before the cut
			pos += len(words[k]) + 1
			k++
			counts[i]++
		}
	}
	counts[len(chunks)-1] = len(words) - k
	return counts, nil
}

// settleShare moves each boundary between chunks by up to shareRadius
// words from where counts put it (to places cut allows, as shareWords),
// to the sharing that the speller finds most likely:
//
//	argmax over b₁ ≤ … ≤ b_{n−1} of Σᵢ log p(words[bᵢ₋₁:bᵢ], EOS | chunk i)
//
// (b₀ = 0, bₙ = len(words)), each term the forced transcript's
// likelihood (asr.Forced.LogLikelihood), found by dynamic programming
// over the (2·shareRadius+1) candidates of each boundary: at most
// (2·shareRadius+1)² forced transcripts a chunk.
//
// CTC alone can be misled at the edges of a chunk: the listener reads
// each chunk on its own, and a weak CTC head fires spuriously on the few
// frames of silence before a cut, where the best path may then spell the
// next sentence's first word. The speller reads a chunk's text as a
// whole, with its end: a chunk that ends on a word it never heard, or
// starts past one it did, is unlikely. Every term has the same tokens in
// all, so sharings compare fairly.
func (t *lasTranscriber) settleShare(chunks []*encodedChunk, words []string, counts []int, cut []bool) ([]int, error) {
	n, W := len(chunks), len(words)
	// bounds[j] lists the candidate word indices of the boundary before
	// chunk j; the first and the last are fixed.
	bounds := make([][]int, n+1)
	bounds[0], bounds[n] = []int{0}, []int{W}
	at := 0
	for j := 1; j < n; j++ {
		at += counts[j-1]
		for d := -shareRadius; d <= shareRadius; d++ {
			if b := at + d; b >= 0 && b <= W && (cut == nil || cut[b]) {
				bounds[j] = append(bounds[j], b)
			}
		}
	}
	score := []float64{0} // best over chunks before j, per candidate of bounds[j]
	from := make([][]int, n+1)
	for j := range n {
		next := make([]float64, len(bounds[j+1]))
		from[j+1] = make([]int, len(bounds[j+1]))
		for ci, b := range bounds[j+1] {
			next[ci], from[j+1][ci] = math.Inf(-1), -1
			for pi, a := range bounds[j] {
				if a > b || math.IsInf(score[pi], -1) {
					continue
				}
				ll, err := t.forcedLikelihood(chunks[j], words[a:b])
				if err != nil {
					return nil, err
				}
				if s := score[pi] + ll; s > next[ci] {
					next[ci], from[j+1][ci] = s, pi
				}
			}
		}
		score = next
	}
	if math.IsInf(score[0], -1) {
		return counts, nil // no sharing scores: keep CTC's
	}
	out := make([]int, n)
	ci := 0
	for j := n; j > 0; j-- {
		pi := from[j][ci]
		out[j-1] = bounds[j][ci] - bounds[j-1][pi]
		ci = pi
	}
	return out, nil
}

// forcedLikelihood is log p(words, EOS | chunk) under the speller.
func (t *lasTranscriber) forcedLikelihood(c *encodedChunk, words []string) (float64, error) {
	tokens, err := t.Model.Vocab.Encode(strings.Join(words, " "))
	if err != nil {
		return 0, err
	}
	fa, err := t.Model.Align(&t.ws, &c.enc, tokens)
	if err != nil {
		return 0, err
	}
	return fa.LogLikelihood(), nil
}
