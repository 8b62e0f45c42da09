package metrics

import "strings"

// WordErrors aligns the words of hyp with those of ref. Words are the
// runs of text between Unicode white space (strings.Fields); nothing else
// is normalized, so normalize both sides the same way first (the pipeline
// uses speechdata.Normalize).
func WordErrors(ref, hyp string) EditCounts {
	return errorCounts(strings.Fields(ref), strings.Fields(hyp))
}

// CharErrors aligns the characters (runes) of hyp with those of ref after
// collapsing each run of white space to one space and trimming both ends.
// The spaces between words count as characters, as in jiwer,
// torchmetrics and Hugging Face evaluate's "cer", so a missing word
// boundary is one error. ESPnet's training-time CER removes the spaces
// instead, which gives lower numbers on the same output.
func CharErrors(ref, hyp string) EditCounts {
	return errorCounts(chars(ref), chars(hyp))
}

// chars returns the runes of s with white space collapsed to single
// spaces between words.
func chars(s string) []rune {
	var out []rune
	for i, w := range strings.Fields(s) {
		if i > 0 {
			out = append(out, ' ')
		}
		out = append(out, []rune(w)...)
	}
	return out
}
