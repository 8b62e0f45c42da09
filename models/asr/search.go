package asr

import (
	"fmt"
	"math"
	"slices"
)

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

// SearchOptions tunes Decode. Start from DefaultSearchOptions: the
// weights and thresholds are taken as they are, 0 meaning none; only
// Beam and MaxLengthRatio, whose zero is no real setting, read 0 as
// their default. A nil *SearchOptions means DefaultSearchOptions.
type SearchOptions struct {
	// Beam is the beam width k; 1 is greedy search (0 means DefaultBeam).
	Beam int
	// LengthPenalty α picks the attention search's result among its
	// complete hypotheses (the open ones when none ended) by
	// score / (tokens+1)^α: 1 (the default) by the score per token, 0 by
	// the total score, which favours short transcripts. The beam itself
	// ranks by total score, and with CTCBeam joint rescoring picks the
	// result by its total score instead, so α is then unused.
	LengthPenalty float64
	// EOSThreshold γ: the end of sentence is a candidate only when its
	// log-probability is at least γ times the best other character's
	// (Chorowski et al. 2015 style; logs are negative, so γ > 1 admits
	// less likely ends). Default 1.5; 0 (or negative) disables the check.
	EOSThreshold float64
	// MaxLengthRatio bounds the output at MaxLengthRatio·T + 10 characters
	// for T encoder frames (0 means 1.5): attention decoders can loop on
	// inputs unlike their training data.
	MaxLengthRatio float64
	// CTCWeight μ ∈ [0, 1] weighs the CTC prefix score in joint decoding
	// (Watanabe et al. 2017): score = (1−μ)·log p_att + μ·log p_ctc.
	// Default 0.3; 0 decodes with attention alone. Ignored when the model
	// has no CTC head.
	CTCWeight float64
	// LM and LMWeight β add shallow fusion with a character language model.
	LM       LanguageModel
	LMWeight float64
	// WordLM adds word-level fusion with a word n-gram model through a
	// lexicon (see WordLM), weighted by WordLMWeight β_w: candidates gain
	// β_w·Δ log p_word at each character (look-ahead within a word, the
	// word's own probability at its end) and WordBonus per completed
	// word, which offsets the language model's preference for fewer,
	// longer words. DefaultSearchOptions sets no language model
	// (pipeline/speech's LanguageModel.Apply loads and sets one).
	WordLM       *WordLM
	WordLMWeight float64
	WordBonus    float64
	// NoFallback keeps the attention output even when it looks broken
	// (see Result.Fallback).
	NoFallback bool
	// CTCBeam, when positive and the model has a CTC head, adds a CTC
	// prefix beam search of that width (fused with the word LM as the
	// attention search is) and picks the transcript by joint rescoring
	// of both searches' complete hypotheses (see rescore): the CTC
	// hypotheses replace the fallback. 0 keeps the attention search
	// alone. Default DefaultCTCBeam.
	CTCBeam int
	// CharBonus is added per character of a complete transcript in joint
	// rescoring (with CTCBeam; nats). The CTC and language-model terms
	// both favour short transcripts: on speech faster than the training
	// speech, the CTC head (one label per 60 ms frame at most) under-emits
	// and the word LM prefers a few common words, so the rescoring picks
	// transcripts that drop words. Default DefaultCharBonus, tuned on the
	// dev speakers with the default word LM (see README).
	CharBonus float64
	// PhoneWeight λ_ph adds the phone CTC head's score of each
	// transcript to joint rescoring (with CTCBeam): the transcript's
	// words are looked up in PhoneDict and their pronunciations,
	// concatenated, scored by CTC over Encoded.PhoneLogProbs; a word the
	// dictionary lacks is a filler that may stand for any phones and
	// costs PhoneOOVPenalty nats unless the user gave it to the WordLM's
	// lexicon (a hotword, a -lexicon word: known, only not how it sounds). The phone head learns sounds, which
	// English spelling hides from the character heads (Toshniwal et al.
	// 2017). 0 (or no phone head, or no PhoneDict) leaves it out.
	PhoneWeight     float64
	PhoneOOVPenalty float64
	PhoneDict       *PhoneDict
	// PhoneBeam, when positive, adds to joint rescoring the transcripts
	// of a phone beam search of that width: a CTC prefix search over the
	// phone head whose prefixes are words of the WordLM's lexicon as
	// PhoneDict pronounces them (see phoneBeam). Where the speller
	// cannot spell what the listener heard, its words are real words
	// that sound right. It needs a phone head, PhoneDict, WordLM and
	// CTCBeam; 0 leaves it out. Default DefaultPhoneBeam.
	PhoneBeam int
}

// DefaultBeam and DefaultCTCBeam are the default widths of the attention
// beam and of the CTC prefix beam whose transcripts are rescored jointly;
// DefaultCharBonus is the default SearchOptions.CharBonus.
const (
	DefaultBeam      = 12
	DefaultCTCBeam   = 12
	DefaultCharBonus = 0.3
	// DefaultPhoneWeight and DefaultPhoneOOVPenalty are the defaults of
	// SearchOptions.PhoneWeight and PhoneOOVPenalty.
	DefaultPhoneWeight     = 0.6
	DefaultPhoneOOVPenalty = 10
	// DefaultPhoneBeam is the default SearchOptions.PhoneBeam.
	DefaultPhoneBeam = 12
)

// DefaultSearchOptions returns the default search: beams of DefaultBeam
// and DefaultCTCBeam, length normalization (α 1), EOS threshold 1.5,
// length ratio 1.5, CTC weight 0.3, DefaultCharBonus and the phone
// head's DefaultPhoneWeight and DefaultPhoneOOVPenalty, no language model
// and no PhoneDict (pipeline/speech's LanguageModel.Apply sets both; the
// phone term needs the dictionary).
func DefaultSearchOptions() SearchOptions {
	return SearchOptions{Beam: DefaultBeam, CTCBeam: DefaultCTCBeam, LengthPenalty: 1, EOSThreshold: 1.5, MaxLengthRatio: 1.5, CTCWeight: 0.3, CharBonus: DefaultCharBonus,
		PhoneWeight: DefaultPhoneWeight, PhoneOOVPenalty: DefaultPhoneOOVPenalty, PhoneBeam: DefaultPhoneBeam}
}

func (o *SearchOptions) withDefaults(hasCTC bool) SearchOptions {
	s := DefaultSearchOptions()
	if o != nil {
		s = *o
	}
	if s.Beam <= 0 {
		s.Beam = DefaultBeam
	}
	if s.LengthPenalty < 0 {
		s.LengthPenalty = 0
	}
	if s.MaxLengthRatio <= 0 {
		s.MaxLengthRatio = 1.5
	}
	switch {
	case !hasCTC || s.CTCWeight < 0:
		s.CTCWeight = 0
	case s.CTCWeight > 1:
		s.CTCWeight = 1
	}
	if s.LM == nil {
		s.LMWeight = 0
	}
	if s.WordLM == nil {
		s.WordLMWeight, s.WordBonus = 0, 0
	}
	if s.PhoneDict == nil || s.PhoneWeight < 0 {
		s.PhoneWeight = 0
	}
	return s
}

// Result is a transcript of one utterance.
type Result struct {
	Tokens []int   // characters, without EOS
	Text   string  // Tokens spelled out
	Score  float64 // the search's score of the hypothesis (log domain)
	// Alignment holds, per token of Tokens, its attention weights over
	// the T encoder frames (from CTC peaks after a fallback: one-hot).
	Alignment [][]float32
	// LogProbs holds, per token of Tokens, the speller's
	// log p(token_i | tokens_<i, x), as Forced.LogProbs does for a
	// known transcript (after a fallback: the CTC head's log-posterior
	// of the token at the frame that emitted it). Unlike Score they
	// leave out the CTC and language-model terms of the search.
	LogProbs []float32
	// Fallback is empty when the attention decoder's output was kept, or
	// says why the CTC head's best path replaced it.
	Fallback string
	// FromCTC says, with joint rescoring (SearchOptions.CTCBeam), that
	// the transcript came from the CTC prefix beam search or the phone
	// beam search alone: the attention beam did not finish it. It is the rescoring's CTC
	// fallback (Alignment and LogProbs are still the speller's, forced).
	FromCTC bool
}

type hypothesis struct {
	tokens   []int
	align    [][]float32
	logp     []float32 // the speller's log-probability of each token
	att, lm  float64   // cumulative log-probabilities
	wlm      float64   // cumulative word LM score (look-ahead included)
	word     wordState // place in the word LM and lexicon
	score    float64   // combined
	ctc      *ctcState
	lmState  any
	lmLogp   []float32
	row      int // decoder state row
	finished bool
}

// Decode transcribes an encoded utterance with beam search (greedy for
// Beam 1), optional joint CTC scoring and LM fusion, guarded against the
// loops and early stops attention decoders show on unusual input.
func (m *Model) Decode(ws *Workspace, e *Encoded, opts *SearchOptions) (*Result, error) {
	o := opts.withDefaults(e.CTCLogProbs != nil)
	if o.LMWeight != 0 && o.LM == nil {
		return nil, fmt.Errorf("asr: LM weight %v without a language model", o.LMWeight)
	}
	k, T, V := o.Beam, e.T, m.Vocab.Size()
	maxLen := int(o.MaxLengthRatio*float64(T)) + 10
	keys, err := m.rowKeys(ws, e, k)
	if err != nil {
		return nil, err
	}
	var prefix *ctcPrefix
	root := &hypothesis{}
	if o.CTCWeight > 0 {
		prefix = &ctcPrefix{T: T, V: V, logp: e.CTCLogProbs}
		root.ctc = prefix.initial()
	}
	if o.LM != nil {
		root.lmState, root.lmLogp = o.LM.Start()
	}
	if o.WordLM != nil {
		root.word = o.WordLM.start()
		root.wlm = float64(root.word.la)
	}
	cur, next := m.Speller.Start(k), m.Speller.Start(k)
	active := []*hypothesis{root}
	var finished []*hypothesis
	tokens := make([]int, k)
	rows := make([]int, k)
	type cand struct {
		h     *hypothesis
		tok   int
		lp    float32 // the speller's log-probability of tok
		att   float64
		score float64
		word  wordState // the word LM's state after tok
		wlm   float64
	}
	var cands []cand
	for step := 0; step < maxLen && len(active) > 0 && len(finished) < k; step++ {
		for r := range k {
			h := active[min(r, len(active)-1)]
			tokens[r] = EOS
			if n := len(h.tokens); n > 0 {
				tokens[r] = h.tokens[n-1]
			}
		}
		logits, err := m.Speller.Step(&ws.dec, next, cur, keys, tokens)
		if err != nil {
			return nil, fmt.Errorf("asr: speller: %w", err)
		}
		ws.logp = append(ws.logp[:0], logits[:k*V]...)
		cands = cands[:0]
		for r, h := range active {
			lp := ws.logp[r*V : (r+1)*V]
			logSoftmax(lp)
			bestOther := float32(math.Inf(-1))
			for c := 1; c < V; c++ {
				bestOther = max(bestOther, lp[c])
			}
			// Preselect by attention (+ LM) score, then rescore with CTC.
			pre := make([]cand, 0, V)
			for c := range V {
				if c == EOS && o.EOSThreshold > 0 && float64(lp[EOS]) < o.EOSThreshold*float64(bestOther) {
					continue
				}
				s := (1-o.CTCWeight)*(h.att+float64(lp[c])) + o.LMWeight*h.lm
				if o.LM != nil {
					s += o.LMWeight * float64(h.lmLogp[c])
				}
				cd := cand{h: h, tok: c, lp: lp[c], att: h.att + float64(lp[c])}
				if o.WordLM != nil {
					ws, d, _ := o.WordLM.extend(h.word, c)
					cd.word, cd.wlm = ws, h.wlm+float64(d)
					s += o.WordLMWeight*cd.wlm + o.WordBonus*float64(ws.words)
				}
				cd.score = s
				pre = append(pre, cd)
			}
			slices.SortFunc(pre, func(a, b cand) int { return cmpDesc(a.score, b.score) })
			if n := max(2*k, 4); len(pre) > n {
				pre = pre[:n]
			}
			_ = r
			cands = append(cands, pre...)
		}
		// CTC prefix scores of the preselected candidates.
		ctcStates := make(map[*hypothesis]map[int]*ctcState)
		if prefix != nil {
			for i := range cands {
				c := &cands[i]
				st := prefix.extend(c.h.ctc, c.tok)
				if ctcStates[c.h] == nil {
					ctcStates[c.h] = map[int]*ctcState{}
				}
				ctcStates[c.h][c.tok] = st
				c.score += o.CTCWeight * st.score
			}
		}
		slices.SortStableFunc(cands, func(a, b cand) int { return cmpDesc(a.score, b.score) })
		var nextActive []*hypothesis
		for _, c := range cands {
			if len(nextActive) == k || len(finished) >= k {
				break
			}
			h := &hypothesis{att: c.att, lm: c.h.lm, score: c.score, row: c.h.row, word: c.word, wlm: c.wlm}
			if o.LM != nil {
				h.lm += float64(c.h.lmLogp[c.tok])
			}
			if prefix != nil {
				h.ctc = ctcStates[c.h][c.tok]
			}
			weights := next.Attention.Weights[c.h.row*T : (c.h.row+1)*T]
			h.align = append(slices.Clip(c.h.align), slices.Clone(weights))
			h.tokens = append(slices.Clip(c.h.tokens), c.tok)
			h.logp = append(slices.Clip(c.h.logp), c.lp)
			if c.tok == EOS {
				h.tokens = h.tokens[:len(h.tokens)-1]
				h.align = h.align[:len(h.align)-1]
				h.logp = h.logp[:len(h.logp)-1]
				h.finished = true
				finished = append(finished, h)
				continue
			}
			if o.LM != nil {
				h.lmState, h.lmLogp = o.LM.Next(c.h.lmState, c.tok)
			}
			nextActive = append(nextActive, h)
		}
		// The decoder rows of the survivors, in order.
		for r := range k {
			rows[r] = 0
			if r < len(nextActive) {
				rows[r] = nextActive[r].row
			}
		}
		for r, h := range nextActive {
			h.row = r
		}
		if err := cur.Gather(next, rows); err != nil {
			return nil, fmt.Errorf("asr: beam: %w", err)
		}
		active = nextActive
	}
	if o.CTCBeam > 0 && e.CTCLogProbs != nil {
		cands := make([][]int, 0, len(finished)+o.CTCBeam)
		for _, h := range finished {
			cands = append(cands, h.tokens)
		}
		cands = append(cands, m.ctcBeam(e, o, o.CTCBeam)...)
		cands = append(cands, m.phoneBeam(e, o, o.PhoneBeam)...)
		r, err := m.rescore(ws, e, o, cands)
		if err != nil {
			return nil, err
		}
		r.FromCTC = !slices.ContainsFunc(finished, func(h *hypothesis) bool { return slices.Equal(h.tokens, r.Tokens) })
		return r, nil
	}
	res := m.pick(finished, active, o)
	if !o.NoFallback {
		if reason := m.broken(res, finished, e); reason != "" && e.CTCLogProbs != nil {
			return m.ctcResult(e, reason), nil
		}
	}
	return res, nil
}

// pick returns the best finished hypothesis by length-normalized score,
// or the best unfinished one when none finished.
func (m *Model) pick(finished, active []*hypothesis, o SearchOptions) *Result {
	pool := finished
	if len(pool) == 0 {
		pool = active
	}
	if len(pool) == 0 {
		return &Result{}
	}
	norm := func(h *hypothesis) float64 {
		return h.score / math.Pow(float64(len(h.tokens)+1), o.LengthPenalty)
	}
	best := pool[0]
	for _, h := range pool[1:] {
		if norm(h) > norm(best) {
			best = h
		}
	}
	r := &Result{Tokens: best.tokens, Text: m.Vocab.Decode(best.tokens), Score: norm(best), Alignment: best.align, LogProbs: best.logp}
	if !best.finished {
		r.Fallback = "no end of sentence"
	}
	return r
}

// broken says why an attention transcript looks like a decoding failure,
// or returns "": no hypothesis reached the end of sentence (a loop), or
// its length disagrees grossly with the CTC head's best path (a loop or an
// early stop).
func (m *Model) broken(r *Result, finished []*hypothesis, e *Encoded) string {
	if len(finished) == 0 {
		return fmt.Sprintf("attention reached no end of sentence within %d characters", len(r.Tokens))
	}
	if e.CTCLogProbs == nil {
		return ""
	}
	ctc := len(m.CTCGreedy(e))
	if d := len(r.Tokens) - ctc; d > max(8, ctc/2) || -d > max(8, ctc/2) {
		return fmt.Sprintf("attention output has %d characters where CTC finds %d", len(r.Tokens), ctc)
	}
	return ""
}

// ctcResult is the CTC best path, each token aligned to the frame that
// emitted it.
func (m *Model) ctcResult(e *Encoded, reason string) *Result {
	V := m.Vocab.Size()
	r := &Result{Fallback: reason}
	prev := EOS
	for t := range e.T {
		row := e.CTCLogProbs[t*V : (t+1)*V]
		best := 0
		for v := range row {
			if row[v] > row[best] {
				best = v
			}
		}
		r.Score += float64(row[best])
		if best != EOS && best != prev {
			r.Tokens = append(r.Tokens, best)
			one := make([]float32, e.T)
			one[t] = 1
			r.Alignment = append(r.Alignment, one)
			r.LogProbs = append(r.LogProbs, row[best])
		}
		prev = best
	}
	r.Text = m.Vocab.Decode(r.Tokens)
	return r
}

func logSoftmax(x []float32) {
	mx := float32(math.Inf(-1))
	for _, v := range x {
		mx = max(mx, v)
	}
	s := 0.0
	for _, v := range x {
		s += math.Exp(float64(v - mx))
	}
	l := mx + float32(math.Log(s))
	for i := range x {
		x[i] -= l
	}
}

func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
