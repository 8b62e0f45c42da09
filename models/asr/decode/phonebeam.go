package decode

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/lm/ngram"
)

// phoneHyp is a prefix of the phone beam search: the words completed so
// far, the trie node of the word being heard, the last phone emitted
// (PhoneBlank: none yet), and the CTC probabilities of the frames so far
// ending in a blank (pb) or in that phone (pnb).
type phoneHyp struct {
	words   string // lexicon indices of the completed words, 4 bytes each
	ctx     ngram.State
	node    int32
	last    int32
	pb, pnb float64
	lm      float64 // completed words' n-gram scores + the node's look-ahead
	n       int32   // completed words
}

func (h *phoneHyp) total() float64 { return logAdd(h.pb, h.pnb) }

type phoneKey struct {
	words      string
	node, last int32
}

func (h *phoneHyp) key() phoneKey { return phoneKey{h.words, h.node, h.last} }

// phoneBeam runs a CTC prefix beam search (Hannun et al. 2014) over the
// phone head's posteriors in which every prefix is a sequence of words of
// the word LM's lexicon, as the pronouncing dictionary says they sound,
// and a partial word on the way down their pronunciation trie
// (phoneTrie): the lexicon-constrained decoding of phone CTC systems
// (Miao et al. 2015, "EESEN"), with the word n-gram at each word's end and
// a unigram look-ahead inside it. A prefix is ranked by
//
//	log p_ctc_phone(prefix) + β_w·LM(prefix) + bonus·words(prefix)
//
// and width prefixes survive each frame. A word may end wherever its
// pronunciation does (each homophone is a prefix of its own). It returns
// the transcripts of the complete prefixes, best first, spelled in the
// model's characters: real words that sound like the audio, which the
// character searches miss when the speller cannot spell what it heard.
// It needs the phone head, o.PhoneDict and o.WordLM; without them it
// returns nothing.
func phoneBeam(m *asr.Model, e *asr.Encoded, o Options, width int) [][]int {
	var cands [][]int
	for _, r := range phoneBeamSearch(e, o, width) {
		if tokens, err := m.Vocab.Encode(strings.Join(r.words, " ")); err == nil { // lexicon words are spellable
			cands = append(cands, tokens)
		}
	}
	return cands
}

// phoneBeamSearch is phoneBeam's search, best first.
func phoneBeamSearch(e *asr.Encoded, o Options, width int) []phoneResult {
	if width <= 0 || e.PhoneLogProbs == nil || o.PhoneDict == nil || o.WordLM == nil {
		return nil
	}
	w := o.WordLM
	s := &phoneSearch{o: o, w: w, tr: w.phoneTrie(o.PhoneDict), next: map[phoneKey]*phoneHyp{}}
	T, P := e.PhoneT, asr.PhoneSetSize
	beam := []*phoneHyp{{ctx: w.Model.Begin(), pb: 0, pnb: negInf, lm: float64(s.tr.la[0])}}
	for t := range T {
		y := e.PhoneLogProbs[t*P : (t+1)*P]
		floor := slices.Max(y) - ctcBeamPrune
		clear(s.next)
		for _, h := range beam {
			s.extend(h, y, floor)
		}
		s.endWords()
		beam = s.prune(beam[:0], width)
	}
	return s.complete(beam)
}

// phoneSearch is the state of the phone beam search: the trie of the
// word LM's lexicon and the prefixes of the next frame.
type phoneSearch struct {
	o    Options
	w    *WordLM
	tr   *phoneTrie
	next map[phoneKey]*phoneHyp
}

// rank is a prefix's score in the beam.
func (s *phoneSearch) rank(h *phoneHyp) float64 {
	return h.total() + s.o.WordLMWeight*h.lm + s.o.WordBonus*float64(h.n)
}

// get returns the next frame's prefix at trie node node with last phone
// last after prefix from's words, made if it is new.
func (s *phoneSearch) get(from *phoneHyp, node, last int32) *phoneHyp {
	k := phoneKey{from.words, node, last}
	if h, ok := s.next[k]; ok {
		return h
	}
	h := &phoneHyp{words: from.words, ctx: from.ctx, node: node, last: last, pb: negInf, pnb: negInf, n: from.n,
		lm: from.lm - float64(s.tr.la[from.node]) + float64(s.tr.la[node])}
	s.next[k] = h
	return h
}

// extend adds to the next frame what prefix h becomes with frame
// posteriors y, leaving out phones below floor: itself (a blank, or its
// last phone going on) and h followed by each next phone of its word.
func (s *phoneSearch) extend(h *phoneHyp, y []float32, floor float32) {
	tr := s.tr
	tot := h.total()
	if y[asr.PhoneBlank] >= floor { // a blank: the prefix stays
		st := s.get(h, h.node, h.last)
		st.pb = logAdd(st.pb, tot+float64(y[asr.PhoneBlank]))
	}
	if h.last != asr.PhoneBlank && y[h.last] >= floor { // the last phone goes on
		st := s.get(h, h.node, h.last)
		st.pnb = logAdd(st.pnb, h.pnb+float64(y[h.last]))
	}
	for i := tr.off[h.node]; i < tr.off[h.node+1]; i++ { // the word's next phone
		ph := tr.phone[i]
		if y[ph] < floor {
			continue
		}
		from := tot
		if ph == h.last { // a repeated phone needs a blank between
			from = h.pb
		}
		st := s.get(h, tr.child[i], ph)
		st.pnb = logAdd(st.pnb, from+float64(y[ph]))
	}
}

// endWords lets every word end where its pronunciation ends: the prefix
// goes on from the root with the word's n-gram score. The ended prefix
// may already be there (it ended on an earlier frame and stayed): the
// same phones, so the larger probabilities are the fuller.
func (s *phoneSearch) endWords() {
	tr := s.tr
	var ended []*phoneHyp
	for _, h := range s.next {
		for _, word := range tr.ends[tr.endOff[h.node]:tr.endOff[h.node+1]] {
			lp, ctx := s.w.wordEnd(h.ctx, word)
			words := binary.LittleEndian.AppendUint32([]byte(h.words), uint32(word))
			ended = append(ended, &phoneHyp{words: string(words), ctx: ctx, node: 0, last: h.last, pb: h.pb, pnb: h.pnb,
				lm: h.lm - float64(tr.la[h.node]) + float64(lp) + float64(tr.la[0]), n: h.n + 1})
		}
	}
	for _, h := range ended {
		if st, ok := s.next[h.key()]; ok {
			st.pb, st.pnb = max(st.pb, h.pb), max(st.pnb, h.pnb)
			continue
		}
		s.next[h.key()] = h
	}
}

// prune appends to beam the width best live prefixes of the next frame,
// in a deterministic order, and returns them in memory of their own.
func (s *phoneSearch) prune(beam []*phoneHyp, width int) []*phoneHyp {
	for _, h := range s.next {
		if h.total() > negInf {
			beam = append(beam, h)
		}
	}
	slices.SortFunc(beam, func(a, b *phoneHyp) int {
		if c := -cmp.Compare(s.rank(a), s.rank(b)); c != 0 {
			return c
		}
		if c := strings.Compare(a.words, b.words); c != 0 { // a deterministic order
			return c
		}
		return cmp.Or(cmp.Compare(a.node, b.node), cmp.Compare(a.last, b.last))
	})
	if len(beam) > width {
		return slices.Clone(beam[:width])
	}
	return slices.Clone(beam)
}

// complete returns the complete prefixes of the last frame's beam (those
// between words, with the end of sentence), best first.
func (s *phoneSearch) complete(beam []*phoneHyp) []phoneResult {
	var out []phoneResult
	seen := map[string]bool{}
	for _, h := range beam {
		if h.node != 0 || h.n == 0 || seen[h.words] {
			continue
		}
		seen[h.words] = true
		r := phoneResult{ctc: h.total(), lm: h.lm - float64(s.tr.la[0]) + float64(s.w.Model.End(h.ctx))}
		for i := 0; i+4 <= len(h.words); i += 4 {
			r.words = append(r.words, s.w.Lexicon.words[binary.LittleEndian.Uint32([]byte(h.words[i:i+4]))])
		}
		r.score = r.ctc + s.o.WordLMWeight*r.lm + s.o.WordBonus*float64(len(r.words))
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b phoneResult) int { return -cmp.Compare(a.score, b.score) })
	return out
}

// phoneResult is a complete transcript of the phone beam search: its
// words, log p_ctc_phone of its phones (summed over the paths the beam
// kept), its word LM score (</s> included) and its rank.
type phoneResult struct {
	words          []string
	ctc, lm, score float64
}
