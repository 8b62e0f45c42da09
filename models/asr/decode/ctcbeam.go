package decode

import (
	"math"
	"slices"

	"github.com/attend-go/attend/models/asr"
)

// ctcBeamPrune keeps, per frame, the characters whose CTC log-posterior
// is within this many nats of the frame's best: the posteriors are
// peaky, and a character 12 nats below the best cannot win that frame.
const ctcBeamPrune = 12

// ctcHyp is a prefix of the CTC prefix beam search: its probability of
// the frames so far ending in a blank (pb) or in its last character
// (pnb), and its place in the word language model.
type ctcHyp struct {
	tokens  []int // nil until seq spells them out, when parent is set
	parent  *ctcHyp
	last    int // the last token, −1 for the empty prefix
	node    int // the prefix's node in ctcSearch.children: equal tokens, equal node
	pb, pnb float64
	word    wordState
	wlm     float64 // cumulative word LM score (look-ahead included)
}

func (h *ctcHyp) total() float64 { return logAdd(h.pb, h.pnb) }

// seq returns the prefix's tokens, spelled out on first use: most of a
// frame's extensions are pruned unread, so they keep only their parent
// and last token.
func (h *ctcHyp) seq() []int {
	if h.parent != nil {
		h.tokens = append(slices.Clip(h.parent.seq()), h.last)
		h.parent = nil
	}
	return h.tokens
}

// ctcBeam runs the CTC prefix beam search (Hannun et al. 2014, "First-pass
// large vocabulary continuous speech recognition using bi-directional
// recurrent DNNs", Algorithm 1) over the CTC head's posteriors, fused
// with the word LM through the lexicon as in the attention search: a
// prefix is ranked by
//
//	log p_ctc(prefix) + β_w·LM(prefix) + bonus·words(prefix)
//
// and width prefixes survive each frame. It returns the surviving
// transcripts (without EOS), best first. Unlike the attention decoder it
// is monotonic by construction: it cannot loop or stop early, which makes
// its hypotheses the safety net of joint rescoring.
func ctcBeam(m *asr.Model, e *asr.Encoded, o Options, width int) [][]int {
	hyps := ctcBeamHyps(m, e, o, width)
	out := make([][]int, len(hyps))
	for i, h := range hyps {
		out[i] = h.seq()
	}
	return out
}

// ctcBeamHyps is ctcBeam returning the hypotheses with their
// probabilities.
func ctcBeamHyps(m *asr.Model, e *asr.Encoded, o Options, width int) []*ctcHyp {
	T, V := e.T, m.Vocab.Size()
	s := &ctcSearch{o: o, space: -1, next: map[int]*ctcHyp{}, children: map[[2]int]int{}}
	if id, ok := m.Vocab.ID(' '); ok {
		s.space = id
	}
	root := &ctcHyp{pb: 0, pnb: negInf, last: -1}
	if o.WordLM != nil {
		root.word = o.WordLM.start()
		root.wlm = float64(root.word.la)
	}
	beam := []*ctcHyp{root}
	var chars []int
	for t := range T {
		y := e.CTCLogProbs[t*V : (t+1)*V]
		chars = likelyChars(chars[:0], y)
		clear(s.next)
		for _, h := range beam {
			s.extend(h, y, chars)
		}
		beam = s.prune(beam[:0], width)
	}
	return beam
}

// likelyChars appends to chars the characters (not the blank) of frame
// posteriors y within ctcBeamPrune of the frame's best class.
func likelyChars(chars []int, y []float32) []int {
	best := y[0]
	for _, v := range y[1:] {
		best = max(best, v)
	}
	for c := 1; c < len(y); c++ {
		if y[c] >= best-ctcBeamPrune {
			chars = append(chars, c)
		}
	}
	return chars
}

// ctcSearch is one frame of the CTC prefix beam search: the prefixes of
// the next frame by their node in the trie of every prefix the search
// has made (the root, the empty prefix, is node 0), which names a token
// sequence by its parent's node and last token instead of spelling it.
type ctcSearch struct {
	o        Options
	space    int // the space's token, −1 without
	next     map[int]*ctcHyp
	children map[[2]int]int // (node, token) → the node of the prefix extended by token
}

// child returns the trie node of the prefix of node extended by c.
func (s *ctcSearch) child(node, c int) int {
	k := [2]int{node, c}
	n, ok := s.children[k]
	if !ok {
		n = len(s.children) + 1
		s.children[k] = n
	}
	return n
}

// rank is a prefix's score in the beam.
func (s *ctcSearch) rank(h *ctcHyp) float64 {
	return h.total() + s.o.WordLMWeight*h.wlm + s.o.WordBonus*float64(h.word.words)
}

// get returns the next frame's prefix from makes: from itself (c = −1)
// or from extended by c, new unless the frame has it already.
func (s *ctcSearch) get(from *ctcHyp, c int) *ctcHyp {
	node := from.node
	if c >= 0 {
		node = s.child(node, c)
	}
	if h, ok := s.next[node]; ok {
		return h
	}
	h := &ctcHyp{tokens: from.tokens, last: from.last, node: node, pb: negInf, pnb: negInf, word: from.word, wlm: from.wlm}
	if c >= 0 {
		h.tokens, h.parent, h.last = nil, from, c
		if s.o.WordLM != nil {
			ws, d, _ := s.o.WordLM.extend(from.word, c)
			h.word, h.wlm = ws, from.wlm+float64(d)
		}
	}
	s.next[node] = h
	return h
}

// extend adds to the next frame what prefix h becomes with frame
// posteriors y: itself (a blank, or its last character repeated) and h
// followed by each of chars.
func (s *ctcSearch) extend(h *ctcHyp, y []float32, chars []int) {
	tot := h.total()
	same := s.get(h, -1)
	same.pb = logAdd(same.pb, tot+float64(y[asr.EOS]))
	last := h.last
	if last >= 0 {
		same.pnb = logAdd(same.pnb, h.pnb+float64(y[last]))
	}
	for _, c := range chars {
		if c == s.space && (last == -1 || last == s.space) {
			continue // no space first or twice: it would spell no word
		}
		ext := s.get(h, c)
		if c == last {
			ext.pnb = logAdd(ext.pnb, h.pb+float64(y[c]))
		} else {
			ext.pnb = logAdd(ext.pnb, tot+float64(y[c]))
		}
	}
}

// prune appends to beam the width best prefixes of the next frame, in a
// deterministic order, and returns them in memory of their own.
func (s *ctcSearch) prune(beam []*ctcHyp, width int) []*ctcHyp {
	for _, h := range s.next {
		beam = append(beam, h)
	}
	slices.SortFunc(beam, func(a, b *ctcHyp) int {
		if c := cmpDesc(s.rank(a), s.rank(b)); c != 0 {
			return c
		}
		return slices.Compare(a.seq(), b.seq()) // deterministic order
	})
	if len(beam) > width {
		beam = beam[:width]
	}
	for _, h := range beam {
		h.seq() // the next frame's prefixes start from these tokens
	}
	return slices.Clone(beam)
}

// ctcSequences returns log p_ctc(seq | x) of every sequence, the
// probability of the whole transcript under the CTC head summed over its
// alignments (the prefix score of seq followed by EOS; −∞ once a prefix
// is impossible), extending each prefix the sequences share once: in
// sorted order, each sequence starts from the states of the prefix it
// shares with the one before (TestCTCSequences: the same floats as
// scoring each alone).
func ctcSequences(p *ctcPrefix, seqs [][]int) []float64 {
	order := make([]int, len(seqs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return slices.Compare(seqs[a], seqs[b]) })
	scores := make([]float64, len(seqs))
	path := []*ctcState{p.initial()} // path[i]: the state after the previous sequence's first i tokens
	var prev []int
	for _, i := range order {
		s := seqs[i]
		shared := 0
		for shared < min(len(s), len(prev)) && s[shared] == prev[shared] {
			shared++
		}
		path = path[:shared+1]
		for _, tok := range s[shared:] {
			path = append(path, p.extend(path[len(path)-1], tok))
		}
		prev = s
		scores[i] = p.extend(path[len(path)-1], asr.EOS).score
		for _, st := range path[1:] {
			if math.IsInf(st.score, -1) {
				scores[i] = negInf
				break
			}
		}
	}
	return scores
}

// tokenKey is a map key for a token sequence: one rune per token id.
func tokenKey(tokens []int) string {
	r := make([]rune, len(tokens))
	for i, t := range tokens {
		r[i] = rune(t)
	}
	return string(r)
}
