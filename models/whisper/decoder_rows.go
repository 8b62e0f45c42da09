package whisper

import (
	"fmt"
	"math"
)

// RowsForwarder is a TextDecoder that can leave out the output layer for
// the appended tokens whose logits nobody reads: a prompt's rows but the
// last (and the start of transcript's, for the no-speech probability),
// or every row when only the cross-attention is wanted. The output layer
// is the decoder's largest product (NVocab × NTextState per row), so a
// window conditioned on 224 tokens of earlier text spends most of its
// prompt pass there when every row gets logits.
type RowsForwarder interface {
	// ForwardRows appends tokens as Forward does and returns the logits
	// of the rows keep names only (strictly ascending indices into
	// tokens), len(keep) rows of NVocab, valid until the next call. An
	// empty keep returns no rows.
	ForwardRows(tokens, keep []int) ([][]float32, error)
}

// forwardRows appends tokens to dec and returns the logits of the rows
// keep names (strictly ascending; len(keep) rows, or an error), through
// ForwardRows where dec has it, else by Forward and picking the rows.
func forwardRows(dec TextDecoder, tokens, keep []int) ([][]float32, error) {
	if err := checkKeep(keep, len(tokens)); err != nil {
		return nil, err
	}
	if rf, ok := dec.(RowsForwarder); ok {
		rows, err := rf.ForwardRows(tokens, keep)
		if err == nil && len(rows) != len(keep) {
			err = fmt.Errorf("whisper: decoder returned %d logit rows for %d kept", len(rows), len(keep))
		}
		return rows, err
	}
	rows, err := dec.Forward(tokens)
	if err != nil {
		return nil, err
	}
	if len(rows) != len(tokens) {
		return nil, fmt.Errorf("whisper: decoder returned %d logit rows for %d tokens", len(rows), len(tokens))
	}
	out := make([][]float32, len(keep))
	for j, i := range keep {
		out[j] = rows[i]
	}
	return out, nil
}

// ProbsForwarder is a TextDecoder that gives each appended token's
// probability of one next token without holding its row of logits
// (word timing reads one probability per row).
type ProbsForwarder interface {
	// ForwardProbs appends tokens as Forward does and returns, for each
	// row i with next[i] ≥ 0, softmax(logits_i[:n])[next[i]], and 0 where
	// next[i] < 0.
	ForwardProbs(tokens, next []int, n int) ([]float64, error)
}

// forwardProbs appends tokens to dec and returns each row's probability
// of next[i] among the first n tokens (len(tokens) of them, or an error), through ForwardProbs where dec has
// it, else from the logits of the rows that have a next token
// (forwardRows).
func forwardProbs(dec TextDecoder, tokens, next []int, n int) ([]float64, error) {
	if pf, ok := dec.(ProbsForwarder); ok {
		p, err := pf.ForwardProbs(tokens, next, n)
		if err == nil && len(p) != len(tokens) {
			err = fmt.Errorf("whisper: decoder returned %d probabilities for %d tokens", len(p), len(tokens))
		}
		return p, err
	}
	if len(next) != len(tokens) {
		return nil, fmt.Errorf("whisper: %d next tokens for %d tokens", len(next), len(tokens))
	}
	var keep []int
	for i, tok := range next {
		if tok >= 0 {
			keep = append(keep, i)
		}
	}
	rows, err := forwardRows(dec, tokens, keep)
	if err != nil {
		return nil, err
	}
	p := make([]float64, len(tokens))
	for j, i := range keep {
		row := rows[j]
		if n > len(row) || next[i] >= n {
			return nil, fmt.Errorf("whisper: next token %d of %d outside a row of %d logits", next[i], n, len(row))
		}
		p[i] = math.Exp(float64(row[next[i]]) - logSumExp(row[:n]))
	}
	return p, nil
}

// checkKeep reports whether keep names rows of t tokens in strictly
// ascending order.
func checkKeep(keep []int, t int) error {
	for j, i := range keep {
		if i < 0 || i >= t || (j > 0 && i <= keep[j-1]) {
			return fmt.Errorf("whisper: rows to keep %v are not ascending indices into %d tokens", keep, t)
		}
	}
	return nil
}

// allRows returns 0, 1, …, t−1.
func allRows(t int) []int {
	keep := make([]int, t)
	for i := range keep {
		keep[i] = i
	}
	return keep
}
