package speechmodel

import (
	"math"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
)

// ctcPosteriors returns, per token, its CTC posterior at each frame of e.
func ctcPosteriors(e *asr.Encoded, tokens []int, V int) [][]float32 {
	rows := make([][]float32, len(tokens))
	for i, tok := range tokens {
		rows[i] = make([]float32, e.T)
		for t := range e.T {
			rows[i][t] = float32(math.Exp(float64(e.CTCLogProbs[t*V+tok])))
		}
	}
	return rows
}

// timeWords times the words spelled by tokens (spaces included) over
// one encoded chunk, relative to its start; transcription and forced
// alignment both time words this way. Each token is placed on the frame
// of the best monotonic path through its attention row and the CTC
// head's posteriors (asr.Model.MonotonicFrames; attention alone without
// a CTC head), and wordTimes groups the tokens into words. After a CTC
// fallback the rows are one-hot at the frames where the CTC best path
// emitted each token, and the path keeps exactly those frames: leaving
// one costs log ε ≈ −18.4 of attention, more than any CTC posterior can
// win back over the emitting frame's (its argmax, so ≥ log 1/V).
func (t *lasTranscriber) timeWords(e *asr.Encoded, tokens []int, alignment [][]float32, logProbs []float32) ([]Word, error) {
	frames, err := decode.MonotonicFrames(t.Model, e, tokens, alignment)
	if err != nil {
		return nil, err
	}
	return wordTimes(t.Model.Vocab, tokens, frames, logProbs, FrameSeconds*float64(t.Model.Config.Reduction())), nil
}

// wordTimes groups tokens placed on encoder frames of frameSec seconds
// into words: a word starts at the start of its first character's frame
// and ends at the end of its last one's, and its confidence is
// exp(mean log p) over its characters' logProbs. Times never go
// backwards: a word that would start before the one before it ends
// starts at that end, and every word lasts at least one frame.
func wordTimes(v *asr.Vocab, tokens, frames []int, logProbs []float32, frameSec float64) []Word {
	words := []Word{}
	var (
		cur         []rune
		first, last int     // frames of the word's first and last characters
		logP        float64 // sum over its characters
		chars       int
		prevEnd     float64
	)
	flush := func() {
		if len(cur) == 0 {
			return
		}
		w := Word{Word: string(cur), Start: float64(first) * frameSec, End: float64(last+1) * frameSec,
			Confidence: math.Exp(logP / float64(chars))}
		w.Start = max(w.Start, prevEnd)
		w.End = max(w.End, w.Start+frameSec)
		prevEnd = w.End
		words = append(words, w)
		cur, logP, chars = cur[:0], 0, 0
	}
	for i, tok := range tokens {
		ch := v.Decode([]int{tok})
		if ch == " " {
			flush()
			continue
		}
		if len(cur) == 0 {
			first, last = frames[i], frames[i]
		}
		last = max(last, frames[i])
		logP += float64(logProbs[i])
		chars++
		cur = append(cur, []rune(ch)...)
	}
	flush()
	return words
}
