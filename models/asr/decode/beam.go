package decode

import (
	"fmt"
	"math"
	"slices"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/models/asr"
)

// hypothesis is a transcript prefix of the attention beam with its
// scores and its places in the fused models.
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

// candidate is a hypothesis extended by one token, before the beam
// chooses among all hypotheses' candidates.
type candidate struct {
	h     *hypothesis
	tok   int
	lp    float32 // the speller's log-probability of tok
	att   float64
	score float64
	word  wordState // the word LM's state after tok
	wlm   float64
	ctc   float64 // ψ(h·tok), the CTC prefix score (joint scoring)
}

// beam is the attention beam search of one utterance: k decoder rows, the
// live hypotheses (row r is active[r]) and the finished ones.
type beam struct {
	m         *asr.Model
	ws        *asr.Workspace
	o         Options
	k, T, V   int
	keys      *attention.Keys
	prefix    *ctcPrefix // nil without joint CTC scoring
	cur, next *asr.SpellerState
	tokens    []int // per row, the token the speller reads next
	rows      []int // per row, the row its survivor comes from
	active    []*hypothesis
	finished  []*hypothesis
	cands     []candidate
	pre       []candidate // expand's scratch: one hypothesis's candidates
}

// attentionBeam runs the attention decoder's beam search of width
// o.Beam: at each step every live hypothesis proposes its best
// candidates by the attention and language-model scores (expand), joint
// decoding adds the CTC prefix score (scoreCTC), and the best k
// candidates go on (advance) until k hypotheses have ended or the output
// reaches MaxLengthRatio·T + 10 characters. It returns the finished
// hypotheses in the order they ended and the live ones.
func attentionBeam(m *asr.Model, ws *asr.Workspace, e *asr.Encoded, o Options) (finished, active []*hypothesis, err error) {
	b, err := newBeam(m, ws, e, o)
	if err != nil {
		return nil, nil, err
	}
	maxLen := int(o.MaxLengthRatio*float64(e.T)) + 10
	for step := 0; step < maxLen && len(b.active) > 0 && len(b.finished) < b.k; step++ {
		if err := b.step(); err != nil {
			return nil, nil, err
		}
	}
	return b.finished, b.active, nil
}

// newBeam prepares the search: the keys of k rows, the root hypothesis
// in the fused models' start states.
func newBeam(m *asr.Model, ws *asr.Workspace, e *asr.Encoded, o Options) (*beam, error) {
	k := o.Beam
	keys, err := m.RowKeys(e, k)
	if err != nil {
		return nil, err
	}
	b := &beam{m: m, ws: ws, o: o, k: k, T: e.T, V: m.Vocab.Size(), keys: keys,
		cur: m.Speller.Start(k), next: m.Speller.Start(k), tokens: make([]int, k), rows: make([]int, k)}
	root := &hypothesis{}
	if o.CTCWeight > 0 {
		b.prefix = &ctcPrefix{T: e.T, V: b.V, logp: e.CTCLogProbs}
		root.ctc = b.prefix.initial()
	}
	if o.LM != nil {
		root.lmState, root.lmLogp = o.LM.Start()
	}
	if o.WordLM != nil {
		root.word = o.WordLM.start()
		root.wlm = float64(root.word.la)
	}
	b.active = []*hypothesis{root}
	return b, nil
}

// step advances the beam by one token.
func (b *beam) step() error {
	for r := range b.k { // rows past the live hypotheses repeat the last
		h := b.active[min(r, len(b.active)-1)]
		b.tokens[r] = asr.EOS
		if n := len(h.tokens); n > 0 {
			b.tokens[r] = h.tokens[n-1]
		}
	}
	logp, err := b.m.StepLogProbs(b.ws, b.next, b.cur, b.keys, b.tokens) // (k, V)
	if err != nil {
		return fmt.Errorf("decode: speller: %w", err)
	}
	b.cands = b.cands[:0]
	for r, h := range b.active {
		b.cands = append(b.cands, b.expand(h, logp[r*b.V:(r+1)*b.V])...)
	}
	b.scoreCTC()
	slices.SortStableFunc(b.cands, func(x, y candidate) int { return cmpDesc(x.score, y.score) })
	return b.advance()
}

// expand returns h's best max(2k, 4) candidates by
//
//	(1−μ)·log p_att + β·log p_LM + β_w·LM_word + bonus·words
//
// given the speller's log-probabilities lp (V) of its next token. The end
// of sentence is a candidate only within EOSThreshold of the best
// character.
func (b *beam) expand(h *hypothesis, lp []float32) []candidate {
	o := b.o
	bestOther := float32(math.Inf(-1))
	for c := 1; c < b.V; c++ {
		bestOther = max(bestOther, lp[c])
	}
	pre := b.pre[:0]
	for c := range b.V {
		if c == asr.EOS && o.EOSThreshold > 0 && float64(lp[asr.EOS]) < o.EOSThreshold*float64(bestOther) {
			continue
		}
		s := (1-o.CTCWeight)*(h.att+float64(lp[c])) + o.LMWeight*h.lm
		if o.LM != nil {
			s += o.LMWeight * float64(h.lmLogp[c])
		}
		cd := candidate{h: h, tok: c, lp: lp[c], att: h.att + float64(lp[c])}
		if o.WordLM != nil {
			ws, d, _ := o.WordLM.extend(h.word, c)
			cd.word, cd.wlm = ws, h.wlm+float64(d)
			s += o.WordLMWeight*cd.wlm + o.WordBonus*float64(ws.words)
		}
		cd.score = s
		pre = append(pre, cd)
	}
	slices.SortFunc(pre, func(x, y candidate) int { return cmpDesc(x.score, y.score) })
	b.pre = pre
	if n := max(2*b.k, 4); len(pre) > n {
		pre = pre[:n]
	}
	return pre // read before the next expand
}

// scoreCTC adds μ times the CTC prefix score to every candidate (joint
// decoding, Watanabe et al. 2017): O(T) per candidate, which is why
// expand preselects.
func (b *beam) scoreCTC() {
	if b.prefix == nil {
		return
	}
	for i := range b.cands {
		c := &b.cands[i]
		c.ctc = b.prefix.score(c.h.ctc, c.tok)
		c.score += b.o.CTCWeight * c.ctc
	}
}

// advance turns the best candidates (sorted) into the next step's
// hypotheses, k at most, setting aside those that end, and moves the
// decoder rows of the survivors into place.
func (b *beam) advance() error {
	var live []*hypothesis
	for _, c := range b.cands {
		if len(live) == b.k || len(b.finished) >= b.k {
			break
		}
		h := b.follow(c)
		if h.finished {
			b.finished = append(b.finished, h)
			continue
		}
		live = append(live, h)
	}
	for r := range b.k {
		b.rows[r] = 0
		if r < len(live) {
			b.rows[r] = live[r].row
		}
	}
	for r, h := range live {
		h.row = r
	}
	if err := b.cur.Gather(b.next, b.rows); err != nil {
		return fmt.Errorf("decode: beam: %w", err)
	}
	b.active = live
	return nil
}

// follow is the hypothesis of candidate c: its parent's tokens,
// alignment and log-probabilities with c's appended (without the end of
// sentence, which marks it finished), and the fused models' states.
func (b *beam) follow(c candidate) *hypothesis {
	o := b.o
	h := &hypothesis{att: c.att, lm: c.h.lm, score: c.score, row: c.h.row, word: c.word, wlm: c.wlm}
	if o.LM != nil {
		h.lm += float64(c.h.lmLogp[c.tok])
	}
	weights := b.next.Attention.Weights[c.h.row*b.T : (c.h.row+1)*b.T]
	h.align = append(slices.Clip(c.h.align), slices.Clone(weights))
	h.tokens = append(slices.Clip(c.h.tokens), c.tok)
	h.logp = append(slices.Clip(c.h.logp), c.lp)
	if c.tok == asr.EOS {
		h.tokens = h.tokens[:len(h.tokens)-1]
		h.align = h.align[:len(h.align)-1]
		h.logp = h.logp[:len(h.logp)-1]
		h.finished = true
		return h
	}
	if o.LM != nil {
		h.lmState, h.lmLogp = o.LM.Next(c.h.lmState, c.tok)
	}
	if b.prefix != nil {
		// Only a survivor needs its r^n and r^b, for its own candidates.
		h.ctc = b.prefix.extend(c.h.ctc, c.tok)
	}
	return h
}

// cmpDesc orders scores from high to low.
func cmpDesc(a, b float64) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
