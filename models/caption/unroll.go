package caption

import "github.com/attend-go/attend/models"

// unroll runs the eager decoder from Start over every row of e until each
// row has said End or has maxLength words: at every step row r takes the
// token pick(r, logp) chooses from its log-probabilities over the
// vocabulary, and emit(r, token, logp[token], s) hears of it, End
// included, with s the state after the step (its attention weights and
// gate). pick is called once per open row and step, rows in order; a
// finished row idles. It is the loop under Greedy (pick: the likeliest
// allowed token) and Sample (pick: a draw).
func (m *Model) unroll(ws *Workspace, e *Encoded, maxLength int,
	pick func(r int, logp []float32) int, emit func(r, token int, logp float32, s *State)) error {
	B, V := e.Keys.B, m.Config.Vocab
	cur, next := m.Start(e), &State{}
	tokens := make([]int, B) // each row's last token; PadID once it has ended
	for r := range tokens {
		tokens[r] = Start
	}
	open := B
	for t := 0; t < maxLength && open > 0; t++ {
		logp, err := m.Step(ws, next, cur, e, tokens)
		if err != nil {
			return err
		}
		for r, prev := range tokens {
			if prev == models.PadID {
				continue
			}
			row := logp[r*V : (r+1)*V]
			y := pick(r, row)
			emit(r, y, row[y], next)
			tokens[r] = y
			if y == End {
				tokens[r] = models.PadID
				open--
			}
		}
		cur, next = next, cur
	}
	return nil
}

// likeliest returns the allowed token of largest log-probability in logp.
func likeliest(logp []float32, o *SearchOptions) int {
	best := -1
	for v, lp := range logp {
		if o.allowed(v) && (best < 0 || lp > logp[best]) {
			best = v
		}
	}
	return best
}
