package caption

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// SearchOptions tunes Greedy and Beam; nil means DefaultSearchOptions.
type SearchOptions struct {
	// MaxLength is the most words a caption may have (0 means 30); a
	// hypothesis still open after MaxLength words is returned unfinished.
	MaxLength int
	// LengthPenalty α ranks hypotheses by LogProb / n^α, n their tokens
	// with End: 1 (the default) by the mean log-probability per token, 0
	// by LogProb, which favours short captions.
	LengthPenalty float64
	// NoUnk keeps Unk out of captions.
	NoUnk bool
	// Exhaustive makes beam search go on after k hypotheses have ended
	// while an open one could still outscore the k-th best of them by its
	// bound LogProb/(MaxLength+1)^α: exact under length normalization, but
	// the bound is loose, so the search nearly always runs to MaxLength,
	// 2–3 times the steps of a Flickr8k caption. By default an open
	// hypothesis is judged by the score it would have if it ended at the
	// next step, LogProb/(n+1)^α for its n words (Hugging Face's beam
	// search without early_stopping does the same).
	Exhaustive bool
	// NoRepeatNGram n > 0 forbids a hypothesis to say any n-gram twice
	// (0: off); see repeat.go.
	NoRepeatNGram int
	// RepeatPenalty p > 0 ranks every word a hypothesis has already said
	// p nats lower (0: off); see repeat.go.
	RepeatPenalty float64
}

// DefaultSearchOptions returns the default search: at most 30 words,
// length normalization (α 1), Unk allowed, the early stop, no bigram said
// twice (NoRepeatNGram 2) and a word already said ranked 1 nat lower
// (RepeatPenalty 1). Of the settings tuned on Flickr8k's dev split this
// gave the best CIDEr-D with greedy and beam search and BLEU-4 within
// 0.02 of the best, and took the captions that repeat a bigram from 19 %
// to none (docs/caption.md has the table).
func DefaultSearchOptions() SearchOptions {
	return SearchOptions{MaxLength: 30, LengthPenalty: 1, NoRepeatNGram: 2, RepeatPenalty: 1}
}

// maxBeam bounds the beam width.
const maxBeam = 256

func (o *SearchOptions) withDefaults() (SearchOptions, error) {
	s := DefaultSearchOptions()
	if o != nil {
		s = *o
	}
	if s.MaxLength == 0 {
		s.MaxLength = 30
	}
	if s.MaxLength < 1 || s.MaxLength > 1000 {
		return s, fmt.Errorf("%w: SearchOptions.MaxLength = %d, want 1 … 1000", ErrInput, s.MaxLength)
	}
	if !(s.LengthPenalty >= 0 && s.LengthPenalty <= 10) {
		return s, fmt.Errorf("%w: SearchOptions.LengthPenalty = %v, want 0 … 10", ErrInput, s.LengthPenalty)
	}
	return s, s.checkRepeat()
}

// Hypothesis is a caption found by search.
type Hypothesis struct {
	Tokens []int    // word ids, without Start and End
	Words  []string // Tokens spelled out
	// LogProb is log p(Tokens, End | image), without End when unfinished.
	LogProb float64
	// Score ranks hypotheses: (LogProb − Penalty) / n^α
	// (SearchOptions.LengthPenalty) for n tokens, End included.
	Score float64
	// Penalty is the repetition penalty the search charged
	// (SearchOptions.RepeatPenalty per repeated word), ≥ 0.
	Penalty float64
	// TokenLogProbs holds log p(y_t | y_<t, image) per token of Tokens,
	// then End's when Finished: LogProb is their sum.
	TokenLogProbs []float32
	// Finished reports that the caption ended with End; false when
	// MaxLength cut it.
	Finished bool
	// Attention holds, per token of Tokens, the attention weights α over
	// the L regions with which the decoder emitted it: the heat map to
	// draw over the image under that word. With hard attention these are
	// the weights whose expectation or argmax the decoder read.
	Attention [][]float32
	// Beta holds, per token, the gate β_t ∈ (0, 1): how much the image
	// context counted for the word (1 without the gate).
	Beta []float32
	// Sentinel holds, per token, adaptive attention's sentinel weight
	// β_t ∈ [0, 1] (Lu et al. 2017): the share of the context the word
	// read from the decoder's own memory rather than the image, so
	// 1 − β_t is how much it looked. nil for soft and hard attention.
	Sentinel []float32
}

// allowed reports whether search may emit token v.
func (o *SearchOptions) allowed(v int) bool {
	return v != Pad && v != Start && !(o.NoUnk && v == Unk)
}

// score is the ranking score of a log-probability over n tokens.
func (o *SearchOptions) score(logp float64, n int) float64 {
	if o.LengthPenalty == 0 || n == 0 {
		return logp
	}
	return logp / math.Pow(float64(n), o.LengthPenalty)
}

// Greedy captions each image with its most likely next word at every
// step, all images in one batch. ws may be nil (a fresh workspace).
func (m *Model) Greedy(ws *Workspace, images [][]float32, opts *SearchOptions) ([]Hypothesis, error) {
	o, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	if ws == nil {
		ws = &Workspace{}
	}
	e, err := m.Encode(images, 1)
	if err != nil {
		return nil, err
	}
	L := m.Config.Regions
	hyps := make([]Hypothesis, len(images))
	adjusts := make([][]repeatAdjust, len(images)) // each row's last step's
	err = m.unroll(ws, e, o.MaxLength,
		func(b int, logp []float32) int {
			if o.repeats() {
				adjusts[b] = o.repeatAdjusts(adjusts[b], hyps[b].Tokens)
				applyRepeats(logp, adjusts[b])
			}
			return likeliest(logp, &o)
		},
		func(b, token int, lp float32, s *State) {
			h := &hyps[b]
			d := repeatDelta(adjusts[b], token)
			h.LogProb += float64(lp) - d
			h.Penalty -= d
			h.TokenLogProbs = append(h.TokenLogProbs, float32(float64(lp)-d))
			if token == End {
				h.Finished = true
				return
			}
			h.Tokens = append(h.Tokens, token)
			h.Attention = append(h.Attention, slices.Clone(s.Attention.Weights[b*L:(b+1)*L]))
			h.Beta = append(h.Beta, s.Beta[b])
			if s.Attention.Sentinel != nil {
				h.Sentinel = append(h.Sentinel, s.Attention.Sentinel[b])
			}
		})
	if err != nil {
		return nil, err
	}
	for b := range hyps {
		finish(&hyps[b], m.Vocab, &o)
	}
	return hyps, nil
}

// finish fills in a hypothesis's Words and Score.
func finish(h *Hypothesis, vocab *Vocab, o *SearchOptions) {
	h.Words = vocab.Words(h.Tokens)
	n := len(h.Tokens)
	if h.Finished {
		n++
	}
	h.Score = o.score(h.LogProb-h.Penalty, n)
}

// beamStep records the rows a beam keeps after one step: row j holds
// token[j], extends row parent[j] of the step before, and was emitted with
// that parent's attention weights and gate.
type beamStep struct {
	token, parent []int
	tokenLogp     []float32 // (k): log p(token | its parent)
	weights       []float32 // (k, L): the step's weights, by parent row
	beta          []float32 // (k)
	sentinel      []float32 // (k): adaptive attention's sentinel weights; nil otherwise
}

// candidate is one extension of a beam row.
type candidate struct {
	row, token int
	logp       float64 // the extended hypothesis's log-probability
	rank       float64 // logp less its repetition penalty: what ranks it
}

// ending is a hypothesis that said End at step: it is row row of the
// rows history[step−1] kept (the empty caption at step 0).
type ending struct {
	step, row  int
	logp, rank float64
	endLogp    float32 // log p(End | the hypothesis)
}

// Beam captions one image ((L, D) annotations) with beam search of width
// k; k = 1 is greedy search. Every step extends the k open hypotheses by
// their best words and keeps the k best extensions; an extension by End
// that ranks among the k best ends its hypothesis, which is not extended
// again. Search stops after MaxLength words, or once k hypotheses have
// ended and no open one would beat the k-th best of them if it ended at
// the next step (with Exhaustive, if it ended at MaxLength: an open
// hypothesis's log-probability only falls, so with length normalization
// its score is at most LogProb/(MaxLength+1)^α). Beam returns up to k
// hypotheses: the ended ones best Score first, then, only if fewer than k
// ended, the best open ones. ws may be nil.
func (m *Model) Beam(ws *Workspace, features []float32, k int, opts *SearchOptions) ([]Hypothesis, error) {
	o, err := opts.forBeam(k)
	if err != nil {
		return nil, err
	}
	if ws == nil {
		ws = &Workspace{}
	}
	st, err := m.stepper(ws, features, k)
	if err != nil {
		return nil, err
	}
	return beam(st, m.Vocab, m.Config.Regions, k, &o)
}

// forBeam returns the options with defaults for a beam of width k,
// checking both.
func (opts *SearchOptions) forBeam(k int) (SearchOptions, error) {
	o, err := opts.withDefaults()
	if err == nil && (k < 1 || k > maxBeam) {
		err = fmt.Errorf("%w: beam width %d, want 1 … %d", ErrInput, k, maxBeam)
	}
	return o, err
}

// beam is Beam's search over the k rows of a stepper (stepper.go), which
// decodes one image with one model or an ensemble; L is the regions a
// row's attention weights cover.
func beam(dec stepper, vocab *Vocab, L, k int, opts *SearchOptions) ([]Hypothesis, error) {
	o := *opts
	V := vocab.Size()
	tokens := make([]int, k)
	for r := range tokens {
		tokens[r] = Start
	}
	logps := make([]float64, k) // each open row's log-probability
	ranks := make([]float64, k) // and its logps less its repetition penalty
	open := 1                   // the first step extends row 0 alone: all rows are alike
	var (
		history    []beamStep
		ended      []ending
		cands      []candidate
		rowBest    []candidate
		kept, rkep []float64
		gathered   = make([]int, k)
		seqs, nseq = make([][]int, k), make([][]int, k) // each open row's tokens, for repeat.go
		adjusts    = make([][]repeatAdjust, k)
	)
	for t := 0; t < o.MaxLength && open > 0; t++ {
		logp, err := dec.step(tokens)
		if err != nil {
			return nil, err
		}
		cands = cands[:0]
		for r := 0; r < open; r++ {
			row := logp[r*V : (r+1)*V]
			if o.repeats() {
				adjusts[r] = o.repeatAdjusts(adjusts[r], seqs[r])
				applyRepeats(row, adjusts[r])
			}
			// A row ends at most once, so its k+1 best words hold k that go on.
			rowBest = topWords(rowBest[:0], row, k+1, &o)
			for _, c := range rowBest {
				d := repeatDelta(adjusts[r], c.token)
				cands = append(cands, candidate{row: r, token: c.token, logp: logps[r] + c.logp - d, rank: ranks[r] + c.logp})
			}
		}
		slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(b.rank, a.rank) })
		weights, beta, sentinel := dec.looked()
		st := beamStep{weights: slices.Clone(weights[:k*L]), beta: slices.Clone(beta[:k])}
		if sentinel != nil {
			st.sentinel = slices.Clone(sentinel[:k])
		}
		kept, rkep = kept[:0], rkep[:0]
		for rank, c := range cands {
			if len(st.token) == k {
				break
			}
			if c.token == End {
				if rank < k {
					ended = append(ended, ending{step: t, row: c.row, logp: c.logp, rank: c.rank, endLogp: float32(c.logp - logps[c.row])})
				}
				continue
			}
			nseq[len(st.token)] = append(append(nseq[len(st.token)][:0], seqs[c.row]...), c.token)
			st.token = append(st.token, c.token)
			st.parent = append(st.parent, c.row)
			st.tokenLogp = append(st.tokenLogp, float32(c.logp-logps[c.row]))
			kept, rkep = append(kept, c.logp), append(rkep, c.rank)
		}
		history = append(history, st)
		open = len(st.token)
		copy(logps, kept)
		copy(ranks, rkep)
		seqs, nseq = nseq, seqs
		copy(tokens, st.token)
		for j := range gathered {
			gathered[j] = 0 // rows past the open ones idle as copies of row 0
			if j < open {
				gathered[j] = st.parent[j]
			}
		}
		longest := o.MaxLength + 1 // tokens, End included
		if !o.Exhaustive {
			longest = t + 2 // an open row's t+1 words, then End at the next step
		}
		if open == 0 || len(ended) >= k && !o.canImprove(ended, ranks[:open], k, longest) {
			break
		}
		if err := dec.gather(gathered); err != nil {
			return nil, err
		}
	}
	var out []Hypothesis
	for _, c := range ended {
		h := trace(history, c.step-1, c.row, L)
		h.LogProb, h.Penalty, h.Finished = c.logp, c.logp-c.rank, true
		h.TokenLogProbs = append(h.TokenLogProbs, c.endLogp)
		out = append(out, h)
	}
	if len(out) < k && len(history) > 0 {
		last := len(history) - 1
		for j := range history[last].token {
			h := trace(history, last, j, L)
			h.LogProb, h.Penalty = logps[j], logps[j]-ranks[j]
			out = append(out, h)
		}
	}
	for i := range out {
		finish(&out[i], vocab, &o)
	}
	slices.SortStableFunc(out, func(a, b Hypothesis) int {
		if a.Finished != b.Finished {
			if a.Finished {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.Score, a.Score)
	})
	return out[:min(len(out), k)], nil
}

// canImprove reports whether an open hypothesis of log-probability logps
// (less its repetition penalty, as ended's rank),
// scored as if it ended with longest tokens, would beat the k-th best of
// ended, which holds at least k (one that ended at step t has t + 1
// tokens with End). An open hypothesis's log-probability can only fall,
// so with longest = MaxLength+1 the score is a bound: with length
// normalization it is at most logp/(MaxLength+1)^α.
func (o *SearchOptions) canImprove(ended []ending, logps []float64, k, longest int) bool {
	scores := make([]float64, len(ended))
	for i, c := range ended {
		scores[i] = o.score(c.rank, c.step+1)
	}
	slices.SortFunc(scores, func(a, b float64) int { return cmp.Compare(b, a) })
	kth := scores[k-1]
	for _, lp := range logps {
		if o.score(lp, longest) > kth {
			return true
		}
	}
	return false
}

// trace follows a beam row back from history[step] to the first step and
// returns its tokens with their attention weights and gates. step −1 is the
// empty hypothesis.
func trace(history []beamStep, step, row, L int) Hypothesis {
	n := step + 1
	h := Hypothesis{Tokens: make([]int, n), TokenLogProbs: make([]float32, n, n+1), Attention: make([][]float32, n), Beta: make([]float32, n)}
	if len(history) > 0 && history[0].sentinel != nil {
		h.Sentinel = make([]float32, n)
	}
	for s := step; s >= 0; s-- {
		st := &history[s]
		p := st.parent[row]
		h.Tokens[s] = st.token[row]
		h.TokenLogProbs[s] = st.tokenLogp[row]
		h.Attention[s] = slices.Clone(st.weights[p*L : (p+1)*L])
		h.Beta[s] = st.beta[p]
		if h.Sentinel != nil {
			h.Sentinel[s] = st.sentinel[p]
		}
		row = p
	}
	return h
}

// topWords appends to dst the n most likely allowed words of one row of
// log-probabilities, best first (ties: the lower id first).
func topWords(dst []candidate, logp []float32, n int, o *SearchOptions) []candidate {
	for v, lp := range logp {
		if !o.allowed(v) || math.IsInf(float64(lp), -1) { // blocked (repeat.go)
			continue
		}
		if len(dst) == n && float64(lp) <= dst[n-1].logp {
			continue
		}
		c := candidate{token: v, logp: float64(lp)}
		if len(dst) < n {
			dst = append(dst, c)
		} else {
			dst[n-1] = c
		}
		for i := len(dst) - 1; i > 0 && dst[i].logp > dst[i-1].logp; i-- {
			dst[i], dst[i-1] = dst[i-1], dst[i]
		}
	}
	return dst
}
