package whisper

import (
	"fmt"
	"strings"
)

// AlignText times the words of a known text in one window of audio, as
// openai/whisper's word timestamps do for its own transcripts
// (timing.py's find_alignment: the alignment heads' cross-attention over
// the text, teacher-forced, median-filtered and warped with DTW onto the
// audio frames), with its punctuation merged into the neighbouring words.
// window is one pad_or_trim'd window of log-mel (NMels × 3000) and
// numFrames the mel frames holding audio; language is the text's (""
// for English-only models). Words come back with times in seconds from
// the window's start and the probability the model gives their tokens.
func AlignText(net Network, tok TextTokenizer, window []float32, numFrames int, text, language string, wo WordOptions) ([]Word, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	audio, err := net.Encode(window)
	if err != nil {
		return nil, err
	}
	defer audio.Release()
	sot, err := tok.SOTSequence(language, "transcribe")
	if err != nil {
		return nil, err
	}
	tokens := PromptTokens(tok, text)
	if max := net.Dims().NTextCtx - len(sot) - 2; len(tokens) > max {
		return nil, fmt.Errorf("whisper: a text of %d tokens does not fit the decoder's context of %d with the start sequence; align it in pieces", len(tokens), net.Dims().NTextCtx)
	}
	heads := wo.Heads
	if heads == nil {
		heads = AlignmentHeadsFor(net.Dims())
	}
	timings, err := findAlignment(net, tok, audio, sot, tokens, numFrames, heads, language)
	if err != nil {
		return nil, err
	}
	mergePunctuations(timings, wo.PrependPunctuations, wo.AppendPunctuations)
	var words []Word
	for _, w := range timings {
		if w.word == "" {
			continue
		}
		words = append(words, Word{Word: w.word, Start: npRound2(w.start), End: npRound2(w.end), Probability: w.probability})
	}
	return words, nil
}
