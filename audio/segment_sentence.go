package audio

// sentenceCut returns where to cut the speech segment [0, end) at the
// buffer's start when it seems to hold more than one sentence: in the
// middle of its longest pause (a run of frames the VAD called non-speech,
// before padding, with speech on both sides) of at least SentencePause
// that leaves at least SentenceLength of the segment on each side. ok is
// false when there is no such pause or the option is off.
//
// Why: a sentence boundary read aloud is often a pause shorter than the
// gap that ends a speech segment (MinNoSpeech plus twice SpeechPad), so
// two sentences share a segment, and a recognizer trained on single
// sentences tends to stop at the first one's end (or the language model
// runs across the boundary). Cutting only where both sides are
// sentence-length keeps the short pauses inside sentences whole.
func (sg *Segmenter) sentenceCut(end int) (cut int, ok bool) {
	if sg.sentencePause <= 0 {
		return 0, false
	}
	hop := VADHop
	endF := end / hop
	if endF < 2*sg.sentenceFrames {
		return 0, false
	}
	decided := min(sg.vad.Decided()-sg.offset/hop, endF)
	bestLen, bestMid := sg.longestPause(endF, func(k, run int) bool {
		mid := (k + run) / 2
		return k > 0 && run < decided && // speech on both sides
			run-k >= sg.sentencePause && mid >= sg.sentenceFrames && mid <= endF-sg.sentenceFrames
	})
	if bestLen == 0 {
		return 0, false
	}
	return bestMid * hop, true
}
