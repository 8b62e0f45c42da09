package whisper

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
)

// Word timestamps (openai/whisper's whisper/timing.py): the decoder is run
// once more over the window's text tokens, and the cross-attention of a
// few "alignment heads" — rows: tokens, columns: 20 ms audio frames — is
// softmaxed over the frames of the window's real audio, standardized per
// frame over the tokens, median-filtered along time (width 7), averaged
// over the heads, and aligned to the tokens by dynamic time warping on its
// negation. A word starts at the frame where its first token's row is
// first reached and ends where the next word's is.

// Word is one word of a segment with its time span in seconds (rounded to
// 10 ms) and the mean probability of its tokens.
type Word struct {
	Word        string  `json:"word"`
	Start       float64 `json:"start"`
	End         float64 `json:"end"`
	Probability float64 `json:"probability"`
}

// Default punctuation merging of transcribe (prepend_punctuations,
// append_punctuations).
const (
	DefaultPrependPunctuations = "\"'“¿([{-"
	DefaultAppendPunctuations  = "\"'.。,，!！?？:：”)]}、"
)

// tokensPerSecond is the decoder's time resolution (openai/whisper's
// TOKENS_PER_SECOND: 20 ms per audio frame after the stride-2 convolution).
const tokensPerSecond = 50

//go:embed alignment_heads.json
var alignmentHeadsJSON []byte

// AlignmentHeads returns openai/whisper's alignment heads (decoder layer,
// head) for the released model named name ("tiny.en", "base", …,
// "large-v3", "large-v3-turbo"), and false for other names.
func AlignmentHeads(name string) ([][2]int, bool) {
	var all map[string][][2]int
	if err := json.Unmarshal(alignmentHeadsJSON, &all); err != nil {
		return nil, false
	}
	h, ok := all[name]
	return h, ok
}

// DefaultAlignmentHeads are the heads openai/whisper uses for a model it
// has no list for: every head of the last half of the decoder layers.
func DefaultAlignmentHeads(d Dims) [][2]int {
	var heads [][2]int
	for l := d.NTextLayer / 2; l < d.NTextLayer; l++ {
		for h := 0; h < d.NTextHead; h++ {
			heads = append(heads, [2]int{l, h})
		}
	}
	return heads
}

// wordTiming is timing.py's WordTiming.
type wordTiming struct {
	word        string
	tokens      []int
	start, end  float64
	probability float64
}

// alignChunk is how many tokens findAlignment passes through the decoder
// at a time.
const alignChunk = 64

// findAlignment is timing.py's find_alignment with medfilt_width 7 and
// qk_scale 1: sot is the start-of-transcript sequence (without
// <|notimestamps|>), numFrames the window's mel frames holding audio.
func findAlignment(net Network, tok TextTokenizer, audio *AudioFeatures, sot, textTokens []int, numFrames int, heads [][2]int, language string) ([]wordTiming, error) {
	if len(textTokens) == 0 {
		return nil, nil
	}
	sp := tok.Specials()
	tokens := append(append(append(append([]int(nil), sot...), sp.NoTimestamps), textTokens...), sp.EOT)
	dec := net.NewDecoder(audio, heads)
	defer releaseDecoders([]TextDecoder{dec})
	// The tokens go through the decoder alignChunk at a time (their
	// scratch and cross-attention rows stay small), each row giving only
	// its next text token's probability (forwardProbs: no rows of
	// logits).
	probs := make([]float64, len(textTokens))
	next := make([]int, alignChunk)
	for a := 0; a < len(tokens); a += alignChunk {
		b := min(len(tokens), a+alignChunk)
		for i := range next[:b-a] {
			// Row p predicts the token after it: text token k follows
			// position len(sot)+k (<|notimestamps|> is at len(sot)).
			next[i] = -1
			if k := a + i - len(sot); k >= 0 && k < len(textTokens) {
				next[i] = textTokens[k]
			}
		}
		p, err := forwardProbs(dec, tokens[a:b], next[:b-a], sp.EOT)
		if err != nil {
			return nil, fmt.Errorf("whisper: word timestamps: %w", err)
		}
		for i := range p {
			if k := a + i - len(sot); k >= 0 && k < len(textTokens) {
				probs[k] = p[i]
			}
		}
	}

	// weights: heads × tokens × frames, softmax over frames, standardized
	// over tokens, median-filtered over frames, averaged over heads.
	frames := numFrames / 2
	if frames <= 0 {
		return nil, errors.New("whisper: word timestamps need at least two mel frames")
	}
	n := len(tokens)
	matrix := make([]float64, n*frames)
	w := make([]float32, n*frames)
	for _, lh := range heads {
		qk := dec.CrossQK(lh[0], lh[1])
		if len(qk) != n {
			return nil, fmt.Errorf("whisper: word timestamps: head (%d,%d) has %d rows of cross-attention for %d tokens", lh[0], lh[1], len(qk), n)
		}
		for r, row := range qk {
			if len(row) < frames {
				return nil, fmt.Errorf("whisper: word timestamps: %d cross-attention frames, want ≥ %d", len(row), frames)
			}
			softmax32(w[r*frames:(r+1)*frames], row[:frames])
		}
		standardizeColumns(w, n, frames)
		medianFilter(w, n, frames, 7)
		for i, v := range w {
			matrix[i] += float64(v)
		}
	}
	// Rows from <|notimestamps|> to the last text token.
	rows := n - len(sot) - 1
	cost := make([]float32, rows*frames)
	for i := range cost {
		cost[i] = -float32(matrix[len(sot)*frames+i] / float64(len(heads)))
	}
	textIdx, timeIdx := dtw(cost, rows, frames)

	words, wordTokens := tok.SplitToWordTokens(append(textTokens[:len(textTokens):len(textTokens)], sp.EOT), language)
	if len(wordTokens) <= 1 {
		return nil, nil
	}
	boundaries := make([]int, len(wordTokens))
	for i := 1; i < len(wordTokens); i++ {
		boundaries[i] = boundaries[i-1] + len(wordTokens[i-1])
	}
	var jumpTimes []float64
	for k := range textIdx {
		if k == 0 || textIdx[k] != textIdx[k-1] {
			jumpTimes = append(jumpTimes, float64(timeIdx[k])/tokensPerSecond)
		}
	}
	out := make([]wordTiming, 0, len(words)-1)
	for i := 0; i+1 < len(boundaries) && i < len(words); i++ {
		a, b := boundaries[i], boundaries[i+1]
		if b >= len(jumpTimes) || b > len(probs) {
			return nil, fmt.Errorf("whisper: word timestamps: word boundary %d outside the alignment (%d jumps)", b, len(jumpTimes))
		}
		p := math.NaN()
		if b > a {
			p = 0
			for _, v := range probs[a:b] {
				p += v
			}
			p /= float64(b - a)
		}
		out = append(out, wordTiming{
			word: words[i], tokens: wordTokens[i],
			start: jumpTimes[a], end: jumpTimes[b], probability: p,
		})
	}
	return out, nil
}

// softmax32 writes softmax(x) to dst in float32, as torch's float32
// softmax.
func softmax32(dst, x []float32) {
	m := float32(math.Inf(-1))
	for _, v := range x {
		m = max(m, v)
	}
	var s float64
	for i, v := range x {
		e := float32(math.Exp(float64(v - m)))
		dst[i] = e
		s += float64(e)
	}
	for i := range dst[:len(x)] {
		dst[i] = float32(float64(dst[i]) / s)
	}
}

// standardizeColumns replaces each column c of x (rows × cols) by
// (x − mean)/std over the rows, the population standard deviation
// (torch.std_mean(unbiased=False)).
func standardizeColumns(x []float32, rows, cols int) {
	for c := 0; c < cols; c++ {
		var mean float64
		for r := 0; r < rows; r++ {
			mean += float64(x[r*cols+c])
		}
		mean /= float64(rows)
		var v float64
		for r := 0; r < rows; r++ {
			d := float64(x[r*cols+c]) - mean
			v += d * d
		}
		std := float32(math.Sqrt(v / float64(rows)))
		m := float32(mean)
		for r := 0; r < rows; r++ {
			x[r*cols+c] = (x[r*cols+c] - m) / std
		}
	}
}

// mergePunctuations is timing.py's merge_punctuations: a word that is a
// prepended punctuation (after a space) joins the word after it, and an
// appended punctuation joins the word before it; emptied words keep their
// place with no text and no tokens.
func mergePunctuations(alignment []wordTiming, prepended, appended string) {
	i, j := len(alignment)-2, len(alignment)-1
	for i >= 0 {
		previous, following := &alignment[i], &alignment[j]
		if strings.HasPrefix(previous.word, " ") && strings.Contains(prepended, pyStrip(previous.word)) {
			following.word = previous.word + following.word
			following.tokens = append(append([]int(nil), previous.tokens...), following.tokens...)
			previous.word = ""
			previous.tokens = nil
		} else {
			j = i
		}
		i--
	}
	i, j = 0, 1
	for j < len(alignment) {
		previous, following := &alignment[i], &alignment[j]
		if !strings.HasSuffix(previous.word, " ") && strings.Contains(appended, following.word) {
			previous.word = previous.word + following.word
			previous.tokens = append(append([]int(nil), previous.tokens...), following.tokens...)
			following.word = ""
			following.tokens = nil
		} else {
			i = j
		}
		j++
	}
}

// WordOptions are transcribe's word-timestamp settings.
type WordOptions struct {
	// Heads are the alignment heads (decoder layer, head); nil means
	// AlignmentHeadsFor the model's dimensions (openai/whisper's list for
	// a released shape, else DefaultAlignmentHeads).
	Heads [][2]int
	// PrependPunctuations and AppendPunctuations are merged into the
	// following and preceding word; DefaultWordOptions sets openai/whisper's.
	PrependPunctuations, AppendPunctuations string
}

// addWordTimestamps is timing.py's add_word_timestamps for one window's
// segments (all with the same Seek): it aligns their text tokens, applies
// the long-word hacks and sets each segment's Words, moving its Start and
// End to its words' where openai/whisper does.
func addWordTimestamps(segments []Segment, net Network, tok TextTokenizer, audio *AudioFeatures, sot []int, language string, numFrames int, wo WordOptions, lastSpeechTimestamp float64) error {
	if len(segments) == 0 {
		return nil
	}
	eot := tok.Specials().EOT
	perSegment := make([][]int, len(segments))
	var text []int
	for i, s := range segments {
		for _, t := range s.Tokens {
			if t < eot {
				perSegment[i] = append(perSegment[i], t)
			}
		}
		text = append(text, perSegment[i]...)
	}
	heads := wo.Heads
	if heads == nil {
		heads = AlignmentHeadsFor(net.Dims())
	}
	alignment, err := findAlignment(net, tok, audio, sot, text, numFrames, heads, language)
	if err != nil {
		return err
	}
	var durations []float64
	for _, t := range alignment {
		if d := t.end - t.start; d != 0 {
			durations = append(durations, d)
		}
	}
	median := 0.0
	if len(durations) > 0 {
		median = npMedian(durations)
	}
	median = math.Min(0.7, median)
	maxDuration := median * 2

	// Truncate long words at sentence boundaries.
	if len(durations) > 0 {
		const sentenceEndMarks = ".。!！?？"
		for i := 1; i < len(alignment); i++ {
			if alignment[i].end-alignment[i].start > maxDuration {
				if strings.Contains(sentenceEndMarks, alignment[i].word) {
					alignment[i].end = alignment[i].start + maxDuration
				} else if strings.Contains(sentenceEndMarks, alignment[i-1].word) {
					alignment[i].start = alignment[i].end - maxDuration
				}
			}
		}
	}
	mergePunctuations(alignment, wo.PrependPunctuations, wo.AppendPunctuations)

	timeOffset := float64(segments[0].Seek*melHopLength) / audioSampleRate
	wordIndex := 0
	for si := range segments {
		seg := &segments[si]
		saved := 0
		words := []Word{}
		for wordIndex < len(alignment) && saved < len(perSegment[si]) {
			t := alignment[wordIndex]
			if t.word != "" {
				words = append(words, Word{
					Word:        t.word,
					Start:       npRound2(timeOffset + t.start),
					End:         npRound2(timeOffset + t.end),
					Probability: t.probability,
				})
			}
			saved += len(t.tokens)
			wordIndex++
		}

		// Truncate long words at segment boundaries.
		if len(words) > 0 {
			first := &words[0]
			if first.End-lastSpeechTimestamp > median*4 &&
				(first.End-first.Start > maxDuration ||
					(len(words) > 1 && words[1].End-first.Start > maxDuration*2)) {
				if len(words) > 1 && words[1].End-words[1].Start > maxDuration {
					boundary := math.Max(words[1].End/2, words[1].End-maxDuration)
					first.End, words[1].Start = boundary, boundary
				}
				first.Start = math.Max(0, first.End-maxDuration)
			}

			// Prefer the segment-level start if the first word is too long.
			if seg.Start < first.End && seg.Start-0.5 > first.Start {
				first.Start = math.Max(0, math.Min(first.End-median, seg.Start))
			} else {
				seg.Start = first.Start
			}

			// Prefer the segment-level end if the last word is too long.
			last := &words[len(words)-1]
			if seg.End > last.Start && seg.End+0.5 < last.End {
				last.End = math.Max(last.Start+median, seg.End)
			} else {
				seg.End = last.End
			}
			lastSpeechTimestamp = seg.End
		}
		seg.Words = words
	}
	return nil
}

// npMedian is np.median: the middle value, or the mean of the two middle
// values.
func npMedian(x []float64) float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// npRound2 is numpy's round(x, 2): rint(x·100)/100, halves to even.
func npRound2(x float64) float64 { return math.RoundToEven(x*100) / 100 }
