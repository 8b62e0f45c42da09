package decode

// LanguageModel scores the next character for shallow fusion in beam
// search (Gulcehre et al. 2015; Kannan et al. 2018): the search ranks
// hypotheses by log p_att + β·log p_LM. Implementations must be safe for
// concurrent use; states are immutable values owned by the caller.
type LanguageModel interface {
	// Start returns the state before the first character and the
	// log-probabilities (V) of the first character.
	Start() (state any, logp []float32)
	// Next feeds token tok after state and returns the new state and the
	// log-probabilities (V) of the character after it.
	Next(state any, tok int) (next any, logp []float32)
}
