package metrics

import (
	"fmt"
	"math"
)

// EditCounts is the outcome of aligning a hypothesis with a reference:
// the reference and hypothesis lengths and the substitutions, deletions
// and insertions of a minimum-cost alignment. Counts of a corpus are the
// sums of its utterances' counts (Add); the corpus error rate is then
// Errors()/Ref, not the mean of the per-utterance rates.
//
// The lengths and counts always satisfy
//
//	Ref = Correct + Sub + Del
//	Hyp = Correct + Sub + Ins
type EditCounts struct {
	Ref int `json:"ref"` // reference length (words or characters)
	Sub int `json:"sub"` // substitutions
	Del int `json:"del"` // deletions: reference tokens missing from the hypothesis
	Ins int `json:"ins"` // insertions: hypothesis tokens not in the reference
	Hyp int `json:"hyp"` // hypothesis length
}

// Add adds o's counts to e.
func (e *EditCounts) Add(o EditCounts) {
	e.Ref += o.Ref
	e.Sub += o.Sub
	e.Del += o.Del
	e.Ins += o.Ins
	e.Hyp += o.Hyp
}

// Errors is the edit distance Sub + Del + Ins.
func (e EditCounts) Errors() int { return e.Sub + e.Del + e.Ins }

// Correct is the number of reference tokens matched exactly.
func (e EditCounts) Correct() int { return e.Ref - e.Sub - e.Del }

// Rate is Errors()/Ref: the word error rate of counts from WordErrors,
// the character error rate of counts from CharErrors. It exceeds 1 when
// the insertions outnumber the correct tokens.
//
// An empty reference (Ref = 0) has rate 0 when the hypothesis is empty too
// and +Inf otherwise: every inserted token is an error and there is
// nothing to divide by. Sum counts over a corpus (Add) before taking the
// rate, so that empty references weigh by their insertions.
func (e EditCounts) Rate() float64 {
	if e.Ref == 0 {
		if e.Errors() == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return float64(e.Errors()) / float64(e.Ref)
}

// String formats the rate as a percentage with its counts, for example
// "12.50% (S 3, D 1, I 0 / 32)". The counts do not know whether they are
// words or characters: callers prefix the name ("WER ", "CER ").
func (e EditCounts) String() string {
	return fmt.Sprintf("%.2f%% (S %d, D %d, I %d / %d)", 100*e.Rate(), e.Sub, e.Del, e.Ins, e.Ref)
}
