package decode

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/lm/ngram"
)

// WordLM fuses a word n-gram language model into the character-level
// beam search through a Lexicon, with the look-ahead of Hori, Cho and
// Watanabe (2018, "End-to-end speech recognition with word-based RNN
// language models", §3; ESPnet's look-ahead word LM).
//
// While a word is being spelled, its prefix is a node of the lexicon's
// prefix tree and the hypothesis carries the look-ahead score of that
// node, an upper bound of the words it can still become:
//
//	LA(h, node) = max_{w under node} log p(w | h) (+ the word's hotword bonus)
//
// Each character moves the score by LA(h, node') − LA(h, node), and the
// end of the word (a space, or the end of the sentence) replaces the
// look-ahead by the word's own log p(w | h); the end of the sentence adds
// log p(</s> | h). Along a hypothesis the increments telescope, so a
// complete transcript has exactly the language model's log-probability
// of its words, while partial words are never charged more than the best
// word they could become (so the beam keeps them).
//
// A prefix that leaves the lexicon spells an out-of-vocabulary word,
// scored as the unknown-word class times its spelling under a unigram
// character model (the letter frequencies of the lexicon's words, with an
// end-of-word symbol), less a penalty:
//
//	log p(<unk> | h) + Σ_i log p_char(c_i) + log p_char(end) − OOVPenalty
//
// charged as the characters come (the <unk> term and the penalty when
// the prefix leaves the lexicon), so a long invented word costs what its
// length makes it unlikely to be, and spaces between known words stay
// cheaper than one run-on unknown word. Lexicon words that the language
// model does not know (a -lexicon file, hotwords) are scored as <unk>,
// without spelling cost or penalty.
type WordLM struct {
	Model   *ngram.Model
	Lexicon *Lexicon
	// OOVPenalty (nats, ≥ 0) is subtracted from log p(<unk> | h) for a
	// word outside the lexicon.
	OOVPenalty float32
	// NoLookAhead scores a word only when it ends (no look-ahead within
	// it, and a prefix outside the lexicon is not charged until then):
	// the ablation of Hori et al.'s look-ahead.
	NoLookAhead bool
	// space is the vocabulary's token of the word separator.
	space int
	chars []string
	// spell[tok] is log p_char of a word character; spellEnd that of the
	// end of a word.
	spell    []float32
	spellEnd float32
	// tries holds the pronunciation prefix trees of the lexicon for the
	// phone beam search, built on first use.
	tries phoneTries
}

// NewWordLM prepares the fusion of lm through lx for a recognizer's
// vocabulary, which must have a space character.
func NewWordLM(lm *ngram.Model, lx *Lexicon, vocab *asr.Vocab, oovPenalty float32) (*WordLM, error) {
	space, ok := vocab.ID(' ')
	if !ok {
		return nil, errNoSpace
	}
	w := &WordLM{Model: lm, Lexicon: lx, OOVPenalty: oovPenalty, space: space, chars: vocab.List()}
	w.spell, w.spellEnd = spellingModel(lx, vocab)
	return w, nil
}

// spellingModel estimates the unigram character model of out-of-vocabulary
// spelling from the lexicon's words: each character's share of all
// characters and word ends (add-one smoothed over the vocabulary's word
// characters), in nats.
func spellingModel(lx *Lexicon, vocab *asr.Vocab) ([]float32, float32) {
	counts := make([]float64, vocab.Size())
	ends := float64(lx.Len())
	total := ends + 1
	for tok, c := range vocab.List() {
		if tok != asr.EOS && c != " " {
			counts[tok] = 1
			total++
		}
	}
	for _, w := range lx.words {
		for _, r := range w {
			if id, ok := vocab.ID(r); ok {
				counts[id]++
				total++
			}
		}
	}
	spell := make([]float32, len(counts))
	for tok, n := range counts {
		spell[tok] = negInf32
		if n > 0 {
			spell[tok] = float32(math.Log(n / total))
		}
	}
	return spell, float32(math.Log((ends + 1) / total))
}

// wordState is a hypothesis's place in the word LM: the n-gram context of
// the words before, the lexicon range of the word being spelled, and the
// look-ahead (or out-of-vocabulary charge) counted for it so far.
type wordState struct {
	ctx    ngram.State
	lo, hi int32 // lexicon range of the prefix
	depth  int32 // bytes spelled of the current word
	oov    bool  // the prefix left the lexicon
	la     float32
	sp     float32 // Σ log p_char of the word's characters so far
	words  int32   // completed words
}

var negInf32 = float32(math.Inf(-1))

var errNoSpace = fmt.Errorf("%w: word-level decoding needs a space in the vocabulary", asr.ErrConfig)

// start is the state before the first character.
func (w *WordLM) start() wordState {
	s := wordState{ctx: w.Model.Begin(), hi: int32(w.Lexicon.Len())}
	s.la = w.lookAhead(s.ctx, s.lo, s.hi)
	return s
}

// unknown returns log p(<unk> | ctx) and the context after it.
func (w *WordLM) unknown(ctx ngram.State) (float32, ngram.State) {
	return w.Model.Score(ctx, w.Model.Unknown())
}

// lookAhead returns LA(ctx, [lo, hi)): the best score of a lexicon word
// in the range, −Inf for an empty range.
func (w *WordLM) lookAhead(ctx ngram.State, lo, hi int32) float32 {
	lx := w.Lexicon
	best := negInf32
	if lo >= hi {
		return best
	}
	if w.NoLookAhead {
		return 0
	}
	if a, b := lx.nextLM[lo], lx.prevLM[hi]; a < hi && b >= lo {
		best = w.Model.LookAhead(ctx, lx.ids[a], lx.ids[b]+1)
	}
	if lx.extras[hi] > lx.extras[lo] {
		u, _ := w.unknown(ctx)
		best = max(best, u)
	}
	if len(lx.hot) > 0 {
		i := sort.Search(len(lx.hot), func(i int) bool { return lx.hot[i] >= lo })
		for ; i < len(lx.hot) && lx.hot[i] < hi; i++ {
			best = max(best, w.wordScore(ctx, lx.hot[i])+lx.bonus[lx.hot[i]])
		}
	}
	return best
}

// wordScore returns log p(word i | ctx) (as <unk> for a word the LM does
// not know), without its bonus.
func (w *WordLM) wordScore(ctx ngram.State, i int32) float32 {
	lx := w.Lexicon
	if lx.inLM[i] {
		lp, _ := w.Model.Score(ctx, lx.ids[i])
		return lp
	}
	lp, _ := w.unknown(ctx)
	return lp
}

// closeWord ends the word being spelled: the context after it and the
// score change (its score minus the look-ahead already counted); ok is
// false when no character of a word was spelled.
func (w *WordLM) closeWord(s wordState) (next ngram.State, delta float32, ok bool) {
	if s.depth == 0 && !s.oov {
		return s.ctx, 0, false
	}
	lx := w.Lexicon
	if !s.oov {
		if i := lx.complete(s.lo, s.hi, int(s.depth)); i >= 0 {
			lp, next := w.wordEnd(s.ctx, i)
			return next, lp - s.la, true
		}
	}
	// An unknown word, or a lexicon prefix that is no word: spelled.
	lp, next := w.unknown(s.ctx)
	return next, lp - w.OOVPenalty + s.sp + w.spellEnd - s.la, true
}

// extend returns the state after token tok and the change of the word
// LM score it brings (nats); closed says whether tok completed a word.
func (w *WordLM) extend(s wordState, tok int) (next wordState, delta float32, closed bool) {
	switch tok {
	case asr.EOS:
		ctx, d, ok := w.closeWord(s)
		if !ok {
			d = -s.la // the look-ahead of a word that never came
		}
		next = s
		next.ctx, next.la = ctx, 0
		if ok {
			next.words++
		}
		return next, d + w.Model.End(ctx), ok
	case w.space:
		ctx, d, ok := w.closeWord(s)
		if !ok {
			return s, 0, false // a second space spells nothing
		}
		next = wordState{ctx: ctx, hi: int32(w.Lexicon.Len()), words: s.words + 1}
		next.la = w.lookAhead(ctx, next.lo, next.hi)
		return next, d + next.la, true
	}
	next = s
	next.depth += int32(len(w.chars[tok]))
	next.sp += w.spell[tok]
	if s.oov {
		if w.NoLookAhead {
			return next, 0, false
		}
		next.la += w.spell[tok]
		return next, w.spell[tok], false
	}
	next.lo, next.hi = w.Lexicon.narrow(s.lo, s.hi, int(s.depth), w.chars[tok])
	switch {
	case next.lo < next.hi:
		next.la = w.lookAhead(s.ctx, next.lo, next.hi)
	case w.NoLookAhead:
		next.oov = true
	default:
		u, _ := w.unknown(s.ctx)
		next.oov, next.la = true, u-w.OOVPenalty+next.sp
	}
	return next, next.la - s.la, false
}

// sentence returns the word LM's score of a complete transcript (tokens
// without EOS; the end of sentence included) and its number of words.
func (w *WordLM) sentence(tokens []int) (lm float64, words int) {
	s := w.start()
	lm = float64(s.la)
	for _, tok := range append(slices.Clip(tokens), asr.EOS) {
		var d float32
		s, d, _ = w.extend(s, tok)
		lm += float64(d)
	}
	return lm, int(s.words)
}
