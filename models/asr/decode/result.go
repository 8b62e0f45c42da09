package decode

// Result is a transcript of one utterance.
type Result struct {
	Tokens []int   // characters, without EOS
	Text   string  // Tokens spelled out
	Score  float64 // the search's score of the hypothesis (log domain)
	// Alignment holds, per token of Tokens, its attention weights over
	// the T encoder frames (from CTC peaks after a fallback: one-hot).
	Alignment [][]float32
	// LogProbs holds, per token of Tokens, the speller's
	// log p(token_i | tokens_<i, x), as asr.Forced.LogProbs does for a
	// known transcript (after a fallback: the CTC head's log-posterior
	// of the token at the frame that emitted it). Unlike Score they
	// leave out the CTC and language-model terms of the search.
	LogProbs []float32
	// Fallback is empty when the attention decoder's output was kept, or
	// says why the CTC head's best path replaced it.
	Fallback string
	// FromCTC says, with joint rescoring (Options.CTCBeam), that
	// the transcript came from the CTC prefix beam search or the phone
	// beam search alone: the attention beam did not finish it. It is the rescoring's CTC
	// fallback (Alignment and LogProbs are still the speller's, forced).
	FromCTC bool
}
