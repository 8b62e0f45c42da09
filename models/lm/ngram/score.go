package ngram

// Score returns ln p(w | s) and the context after w. A word id outside
// [0, len(Words())) is scored as Unknown. Score does not allocate.
//
// It follows the back-off chain of s (Katz 1987; the ARPA convention):
//
//	p(w | h) = p*(h w)                 if the n-gram h w is in the model
//	         = bow(h) · p(w | h')      otherwise, h' = h without its first word
//
// with bow(h) = 1 where h is no context of the model and p(w | ε) the
// unigram.
func (m *Model) Score(s State, w WordID) (logp float32, next State) {
	if w < 0 || int(w) >= len(m.vocab) {
		w = m.unk
	}
	lp, c := m.score(int32(s), int32(w))
	return lp * ln10, m.stateOf(c)
}

// End returns ln p(</s> | s), the cost of ending the sentence after s.
func (m *Model) End(s State) float32 {
	lp, _ := m.score(int32(s), int32(m.eos))
	return lp * ln10
}

// score returns log10 p(w | s) and the node of the longest n-gram that
// matched.
func (m *Model) score(s, w int32) (float32, int32) {
	var acc float32
	for {
		if c := m.findChild(s, w); c >= 0 {
			return acc + m.prob[c], c
		}
		acc += m.bow[s]
		s = m.back[s]
	}
}
