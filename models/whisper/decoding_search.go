package whisper

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"sort"
)

// TokenDecoder chooses the next tokens of a group of sequences (the beams,
// or the best-of samples, of one window), as openai/whisper's
// TokenDecoder. Sequences hold every token so far, initial tokens
// included.
type TokenDecoder interface {
	// Reset clears state before a new window.
	Reset()
	// Update extends the group given each sequence's filtered next-token
	// logits and summed log-probabilities (updated in place). It returns
	// the new sequences, for each the index of the sequence it extends
	// (whose key/value cache it continues), and whether decoding is done.
	Update(seqs [][]int, logits [][]float32, sumLogprobs []float32) (next [][]int, sources []int, completed bool)
	// Finalize returns the candidate sequences, each ending in EOT, with
	// their summed log-probabilities.
	Finalize(seqs [][]int, sumLogprobs []float32) (candidates [][]int, scores []float64)
}

// GreedyDecoder takes the most probable token at temperature 0 (the first
// maximum, as torch.argmax) and otherwise samples from softmax(logits/T)
// with Rand. A sequence that ended keeps receiving EOT and stops
// accumulating log-probability.
type GreedyDecoder struct {
	Temperature float64
	EOT         int
	Rand        *rand.Rand // used when Temperature > 0
}

// Reset implements TokenDecoder.
func (g *GreedyDecoder) Reset() {}

// Update implements TokenDecoder.
func (g *GreedyDecoder) Update(seqs [][]int, logits [][]float32, sumLogprobs []float32) ([][]int, []int, bool) {
	next := make([][]int, len(seqs))
	sources := make([]int, len(seqs))
	completed := true
	for k, seq := range seqs {
		var tok int
		if g.Temperature == 0 {
			tok = argmax(logits[k])
		} else {
			tok = sampleCategorical(logits[k], g.Temperature, g.Rand)
		}
		last := seq[len(seq)-1]
		if last != g.EOT {
			sumLogprobs[k] += logSoftmaxAt(logits[k], tok)
		} else {
			tok = g.EOT
		}
		next[k] = append(seq[:len(seq):len(seq)], tok)
		sources[k] = k
		completed = completed && tok == g.EOT
	}
	return next, sources, completed
}

// Finalize implements TokenDecoder: every sequence gets one more EOT.
func (g *GreedyDecoder) Finalize(seqs [][]int, sumLogprobs []float32) ([][]int, []float64) {
	out := make([][]int, len(seqs))
	scores := make([]float64, len(seqs))
	for k, s := range seqs {
		out[k] = append(s[:len(s):len(s)], g.EOT)
		scores[k] = float64(sumLogprobs[k])
	}
	return out, scores
}

// BeamSearchDecoder is openai/whisper's BeamSearchDecoder for one window:
// each step expands every beam by its BeamSize+1 most probable tokens,
// keeps the BeamSize best unfinished candidates, and sets aside finished
// ones (ending in EOT) until round(BeamSize·Patience) are collected.
type BeamSearchDecoder struct {
	BeamSize int
	EOT      int
	Patience float64 // 0 means 1.0

	finished orderedScores
}

func maxCandidates(beamSize int, patience float64) int {
	if patience == 0 {
		patience = 1
	}
	return int(math.RoundToEven(float64(beamSize) * patience))
}

// Reset implements TokenDecoder.
func (b *BeamSearchDecoder) Reset() { b.finished = orderedScores{} }

// Update implements TokenDecoder.
func (b *BeamSearchDecoder) Update(seqs [][]int, logits [][]float32, sumLogprobs []float32) ([][]int, []int, bool) {
	// Step 1: the cumulative log-probabilities of the candidates.
	var cand orderedScores
	sources := map[string]int{}
	for j := 0; j < b.BeamSize && j < len(seqs); j++ {
		// log_softmax keeps the logits' order: the top tokens are the
		// logits' top tokens.
		lse := logSumExp(logits[j])
		for _, tok := range topK(logits[j], b.BeamSize+1) {
			lp := float32(float64(logits[j][tok]) - lse)
			seq := append(seqs[j][:len(seqs[j]):len(seqs[j])], tok)
			key := cand.set(seq, float64(sumLogprobs[j]+lp))
			sources[key] = j
		}
	}

	// Step 2: keep the BeamSize best unfinished candidates.
	var next [][]int
	var src []int
	var newlyFinished orderedScores
	for _, i := range cand.sortedDesc() {
		e := cand.entries[i]
		if e.seq[len(e.seq)-1] == b.EOT {
			newlyFinished.set(e.seq, e.score)
			continue
		}
		sumLogprobs[len(next)] = float32(e.score)
		next = append(next, e.seq)
		src = append(src, sources[e.key])
		if len(next) == b.BeamSize {
			break
		}
	}

	limit := maxCandidates(b.BeamSize, b.Patience)
	for _, i := range newlyFinished.sortedDesc() {
		if len(b.finished.entries) >= limit {
			break // the candidate list is full
		}
		e := newlyFinished.entries[i]
		b.finished.set(e.seq, e.score)
	}
	return next, src, len(b.finished.entries) >= limit
}

// Finalize implements TokenDecoder: the finished sequences, topped up with
// the best unfinished ones (plus EOT) when fewer than BeamSize finished.
func (b *BeamSearchDecoder) Finalize(seqs [][]int, sumLogprobs []float32) ([][]int, []float64) {
	if len(b.finished.entries) < b.BeamSize {
		order := make([]int, len(seqs))
		for i := range order {
			order[i] = i
		}
		// np.argsort(...)[::-1]: descending; ties in reverse index order.
		sort.SliceStable(order, func(x, y int) bool { return sumLogprobs[order[x]] < sumLogprobs[order[y]] })
		for i := len(order) - 1; i >= 0; i-- {
			j := order[i]
			seq := append(seqs[j][:len(seqs[j]):len(seqs[j])], b.EOT)
			b.finished.set(seq, float64(sumLogprobs[j]))
			if len(b.finished.entries) >= b.BeamSize {
				break
			}
		}
	}
	out := make([][]int, len(b.finished.entries))
	scores := make([]float64, len(b.finished.entries))
	for i, e := range b.finished.entries {
		out[i], scores[i] = e.seq, e.score
	}
	return out, scores
}

// orderedScores is a Python dict from token sequence to score: insertion
// ordered, and setting an existing key replaces its score in place.
type orderedScores struct {
	entries []scoredSeq
	index   map[string]int
}

type scoredSeq struct {
	key   string
	seq   []int
	score float64
}

func seqKey(seq []int) string {
	b := make([]byte, 0, 4*len(seq))
	for _, t := range seq {
		b = binary.LittleEndian.AppendUint32(b, uint32(t))
	}
	return string(b)
}

func (o *orderedScores) set(seq []int, score float64) string {
	key := seqKey(seq)
	if o.index == nil {
		o.index = map[string]int{}
	}
	if i, ok := o.index[key]; ok {
		o.entries[i].score = score
		return key
	}
	o.index[key] = len(o.entries)
	o.entries = append(o.entries, scoredSeq{key: key, seq: seq, score: score})
	return key
}

// sortedDesc returns entry indices by descending score, ties in insertion
// order (Python's stable sorted(..., reverse=True)).
func (o *orderedScores) sortedDesc() []int {
	idx := make([]int, len(o.entries))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return o.entries[idx[a]].score > o.entries[idx[b]].score })
	return idx
}

// SequenceRanker picks one of a window's candidate sequences.
type SequenceRanker interface {
	// Rank returns the index of the chosen candidate; tokens are the
	// sampled tokens (initial tokens and EOT removed).
	Rank(tokens [][]int, sumLogprobs []float64) int
}

// MaximumLikelihoodRanker picks the highest log-probability, normalized
// by the length (LengthPenalty nil) or by Google NMT's length penalty
// ((5+len)/6)^alpha; the first of equal scores wins (np.argmax).
type MaximumLikelihoodRanker struct {
	LengthPenalty *float64
}

// Rank implements SequenceRanker.
func (r MaximumLikelihoodRanker) Rank(tokens [][]int, sumLogprobs []float64) int {
	best, bestScore := 0, math.Inf(-1)
	for i, lp := range sumLogprobs {
		length := float64(len(tokens[i]))
		penalty := length
		if r.LengthPenalty != nil {
			penalty = math.Pow((5+length)/6, *r.LengthPenalty)
		}
		s := lp / penalty
		if i == 0 || s > bestScore || (math.IsNaN(s) && !math.IsNaN(bestScore)) {
			best, bestScore = i, s
		}
	}
	return best
}

// argmax returns the index of the first maximum.
func argmax(x []float32) int {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return best
}

// topK returns the indices of the k largest values, largest first, lower
// index first among equals.
func topK(x []float32, k int) []int {
	k = min(k, len(x))
	top := make([]int, 0, k+1)
	for i, v := range x {
		if len(top) == k && !(v > x[top[k-1]]) {
			continue
		}
		pos := len(top)
		for pos > 0 && v > x[top[pos-1]] {
			pos--
		}
		top = append(top, 0)
		copy(top[pos+1:], top[pos:])
		top[pos] = i
		if len(top) > k {
			top = top[:k]
		}
	}
	return top
}

func logSoftmaxAt(x []float32, i int) float32 { return float32(float64(x[i]) - logSumExp(x)) }

// sampleCategorical draws an index from softmax(x/T) with r.
func sampleCategorical(x []float32, temperature float64, r *rand.Rand) int {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, float64(v)/temperature)
	}
	total := 0.0
	for _, v := range x {
		total += math.Exp(float64(v)/temperature - m)
	}
	u := r.Float64() * total
	last := 0
	for i, v := range x {
		p := math.Exp(float64(v)/temperature - m)
		if p == 0 {
			continue
		}
		last = i
		if u < p {
			return i
		}
		u -= p
	}
	return last
}
