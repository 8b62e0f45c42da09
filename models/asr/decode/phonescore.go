package decode

import (
	"math"
	"strings"

	"github.com/attend-go/attend/models/asr"
)

// phoneWild stands in a pronunciation for the unknown phones of a word
// the PhoneDict lacks.
const phoneWild = -1

// phoneWords returns the pronunciations of text's words through d (each
// word: its alternatives, each a sequence of phone ids), a word d lacks
// being the one-state filler {{phoneWild}}, and the number of such words
// that the user did not give known (nil: none; Lexicon.Given): a hotword
// or -lexicon word, such as a name, is a word whose sounds d does not
// know, not a spelling the search made up.
func phoneWords(d *PhoneDict, known *Lexicon, text string) (words [][][]int, unknown int) {
	for _, w := range strings.Fields(text) {
		prons := d.Pronunciations(w)
		if len(prons) == 0 {
			prons = [][]int{{phoneWild}}
			if known == nil || !known.Given(w) {
				unknown++
			}
		}
		words = append(words, prons)
	}
	return words, unknown
}

// phoneLattice is the CTC state graph of a transcript's pronunciations
// (Graves et al. 2006, generalized from one label sequence to a choice of
// pronunciation per word): a blank before the first word and after every
// word, and per pronunciation its phones with a blank between each two.
// A state may stay (self-loop), follow its predecessors, and a phone may
// skip the blank before it unless it repeats the phone before that blank.
// Words are concatenated without a boundary label, as the phone head was
// trained.
type phoneLattice struct {
	label []int   // per state: PhoneBlank, a phone id or phoneWild
	start []bool  // states a path may begin in
	final []int32 // states a path may end in
	pred  []int32 // predecessors of state s: pred[off[s]:off[s+1]]
	off   []int32
}

// build makes the lattice of words (phoneWords), reusing l's memory.
func (l *phoneLattice) build(words [][][]int) {
	l.label, l.start, l.pred, l.off = l.label[:0], l.start[:0], l.pred[:0], append(l.off[:0], 0)
	add := func(label int, start bool, preds ...int32) int32 {
		l.label, l.start = append(l.label, label), append(l.start, start)
		l.pred = append(l.pred, preds...)
		l.off = append(l.off, int32(len(l.pred)))
		return int32(len(l.label) - 1)
	}
	blank := add(asr.PhoneBlank, true)
	var ends []int32 // the last phone of each pronunciation of the previous word
	for i, prons := range words {
		var next []int32
		for _, pron := range prons {
			last := int32(-1)
			for k, ph := range pron {
				var preds []int32
				if k == 0 {
					preds = append(preds, blank)
					for _, e := range ends {
						if l.label[e] != ph {
							preds = append(preds, e)
						}
					}
				} else {
					inner := add(asr.PhoneBlank, false, last)
					preds = append(preds, inner)
					if l.label[last] != ph {
						preds = append(preds, last)
					}
				}
				last = add(ph, i == 0 && k == 0, preds...)
			}
			next = append(next, last)
		}
		blank, ends = add(asr.PhoneBlank, false, next...), next
	}
	l.final = append(append(l.final[:0], blank), ends...)
}

// phoneCTCScore returns log p_ctc(words | x): the log of the sum, over
// every path through lattice l of T frames, of the product of its
// states' emissions under the phone head's per-frame log-probabilities
// logp (T, P):
//
//	α₀(s) = e₀(s) for a start state, α_t(s) = e_t(s) + log(α_{t−1}(s) + Σ_{p ∈ pred(s)} α_{t−1}(p))
//	log p = log Σ_{s final} α_{T−1}(s)
//
// with e_t(s) = log p(label(s) | t). A phoneWild state is a filler for a
// word of unknown pronunciation: it stays for one or more frames, each
// emitting the frame's best label, e_t = max_k log p(k|t), as the best
// path through those frames would; the caller charges it a penalty. With
// one pronunciation per word this is CTC's forward recursion. Lattices
// that cannot fit in T frames score math.Inf(-1). alpha is scratch
// (grown when short and returned).
func phoneCTCScore(logp []float32, T, P int, l *phoneLattice, alpha []float64) (float64, []float64) {
	S := len(l.label)
	if cap(alpha) < 2*S {
		alpha = make([]float64, 2*S)
	}
	alpha = alpha[:2*S]
	prev, cur := alpha[:S], alpha[S:]
	neg := math.Inf(-1)
	if T == 0 {
		if S == 1 {
			return 0, alpha
		}
		return neg, alpha
	}
	emit := func(t, label int) float64 {
		row := logp[t*P : (t+1)*P]
		if label != phoneWild {
			return float64(row[label])
		}
		best := row[0]
		for _, v := range row[1:] {
			best = max(best, v)
		}
		return float64(best)
	}
	for s := range S {
		prev[s] = neg
		if l.start[s] {
			prev[s] = emit(0, l.label[s])
		}
	}
	for t := 1; t < T; t++ {
		for s := range S {
			a := prev[s]
			for _, p := range l.pred[l.off[s]:l.off[s+1]] {
				a = logAdd(a, prev[p])
			}
			if a == neg {
				cur[s] = neg
				continue
			}
			cur[s] = a + emit(t, l.label[s])
		}
		prev, cur = cur, prev
	}
	total := neg
	for _, s := range l.final {
		total = logAdd(total, prev[s])
	}
	return total, alpha
}
