package decode

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/lm/ngram"
)

// Lexicon is the set of words the word-level search knows how to spell,
// sorted in byte order so that the words sharing a spelling prefix form
// one contiguous index range [lo, hi): a node of the prefix tree is such a
// range and a depth, and following a character narrows the range by two
// binary searches (no explicit tree is stored).
//
// Each word carries its id in the word language model, or the model's
// unknown-word id for words the lexicon adds (-lexicon files, hotwords).
// Because the model's ids are in byte order too, the model's words inside
// a lexicon range are one contiguous id range of the model, which is what
// ngram.Model.LookAhead bounds.
type Lexicon struct {
	words []string
	ids   []ngram.WordID // per word: its id in the LM, or unknown
	inLM  []bool
	bonus []float32 // per word: hotword bonus (natural log), usually 0
	// nextLM[i] is the first index ≥ i of a word in the LM (len(words)
	// if none); prevLM[i] the last index < i of one (−1 if none).
	nextLM, prevLM []int32
	// extras[i] counts the words not in the LM among words[:i].
	extras []int32
	hot    []int32 // indices of the words with a bonus, ascending
}

// NewLexicon builds the lexicon of a word LM for a recognizer's
// vocabulary: every word of lm that the vocabulary can spell (other
// words, such as <s>, <unk> or words with digits, are left out), plus
// extra words (a user's lexicon; each normalized word must be spellable:
// otherwise it is an error naming it), plus the hotwords, which get
// their bonus (in nats) added to their word score.
func NewLexicon(lm *ngram.Model, vocab *asr.Vocab, extra []string, hot map[string]float32) (*Lexicon, error) {
	entries, err := lexiconEntries(lm, vocab, extra, hot)
	if err != nil {
		return nil, err
	}
	return indexLexicon(entries), nil
}

// lexiconEntry is a word of a lexicon being built.
type lexiconEntry struct {
	word  string
	id    ngram.WordID
	inLM  bool
	bonus float32
}

// spellable reports whether vocab spells w as one word: a character of
// the vocabulary at a time, no EOS and no space.
func spellable(vocab *asr.Vocab, w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		id, ok := vocab.ID(r)
		if !ok || id == asr.EOS || r == ' ' {
			return false
		}
	}
	return true
}

// lexiconEntries collects NewLexicon's words, sorted in byte order.
func lexiconEntries(lm *ngram.Model, vocab *asr.Vocab, extra []string, hot map[string]float32) ([]*lexiconEntry, error) {
	byWord := map[string]*lexiconEntry{}
	for _, w := range lm.Words() {
		if spellable(vocab, w) {
			id, _ := lm.ID(w)
			byWord[w] = &lexiconEntry{word: w, id: id, inLM: true}
		}
	}
	add := func(w, what string) (*lexiconEntry, error) {
		if !spellable(vocab, w) {
			return nil, fmt.Errorf("decode: %s %q cannot be spelled with the model's characters %q", what, w, strings.Join(vocab.List()[1:], ""))
		}
		e := byWord[w]
		if e == nil {
			e = &lexiconEntry{word: w, id: lm.Unknown()}
			byWord[w] = e
		}
		return e, nil
	}
	for _, w := range extra {
		if _, err := add(w, "lexicon word"); err != nil {
			return nil, err
		}
	}
	for w, b := range hot {
		e, err := add(w, "hotword")
		if err != nil {
			return nil, err
		}
		e.bonus = b
	}
	entries := make([]*lexiconEntry, 0, len(byWord))
	for _, e := range byWord {
		entries = append(entries, e)
	}
	slices.SortFunc(entries, func(a, b *lexiconEntry) int { return strings.Compare(a.word, b.word) })
	return entries, nil
}

// indexLexicon lays out sorted entries as a Lexicon with its indices.
func indexLexicon(entries []*lexiconEntry) *Lexicon {
	n := len(entries)
	lx := &Lexicon{words: make([]string, n), ids: make([]ngram.WordID, n), inLM: make([]bool, n),
		bonus: make([]float32, n), nextLM: make([]int32, n+1), prevLM: make([]int32, n+1), extras: make([]int32, n+1)}
	for i, e := range entries {
		lx.words[i], lx.ids[i], lx.inLM[i], lx.bonus[i] = e.word, e.id, e.inLM, e.bonus
		if e.bonus != 0 {
			lx.hot = append(lx.hot, int32(i))
		}
		lx.extras[i+1] = lx.extras[i]
		if !e.inLM {
			lx.extras[i+1]++
		}
	}
	lx.nextLM[n] = int32(n)
	for i := n - 1; i >= 0; i-- {
		lx.nextLM[i] = lx.nextLM[i+1]
		if lx.inLM[i] {
			lx.nextLM[i] = int32(i)
		}
	}
	lx.prevLM[0] = -1
	for i := 1; i <= n; i++ {
		lx.prevLM[i] = lx.prevLM[i-1]
		if lx.inLM[i-1] {
			lx.prevLM[i] = int32(i - 1)
		}
	}
	return lx
}

// Len returns the number of words.
func (lx *Lexicon) Len() int { return len(lx.words) }

// Contains reports whether w is a word of the lexicon.
func (lx *Lexicon) Contains(w string) bool {
	_, ok := slices.BinarySearch(lx.words, w)
	return ok
}

// Given reports whether w is a word the user gave the lexicon: an extra
// word the LM lacks, or a hotword.
func (lx *Lexicon) Given(w string) bool {
	i, ok := slices.BinarySearch(lx.words, w)
	return ok && (!lx.inLM[i] || lx.bonus[i] != 0)
}

// narrow returns the sub-range of [lo, hi) (words sharing a prefix of
// depth bytes) whose words continue that prefix with c: the words are
// sorted, so those whose bytes from depth on begin with c are a run,
// found by comparing those bytes alone.
func (lx *Lexicon) narrow(lo, hi int32, depth int, c string) (int32, int32) {
	if lo >= hi {
		return lo, lo
	}
	span := lx.words[lo:hi]
	if len(c) == 1 {
		a, b := narrowByte(span, depth, c[0])
		return lo + int32(a), lo + int32(b)
	}
	rest := func(i int) string { return span[i][depth:] }
	a := sort.Search(len(span), func(i int) bool { return rest(i) >= c })
	b := a + sort.Search(len(span)-a, func(i int) bool { return !strings.HasPrefix(rest(a+i), c) })
	return lo + int32(a), lo + int32(b)
}

// narrowByte is narrow for a one-byte c: the words of span (sorted,
// sharing their first depth bytes) order by their byte at depth, a word
// of depth bytes first, so [a, b) is where that byte is c, found by
// comparing one byte instead of strings.
func narrowByte(span []string, depth int, c byte) (a, b int) {
	// key(i) < c: the word ends at depth or its byte there is below c.
	below := func(w string, c byte) bool { return len(w) == depth || w[depth] < c }
	lo, hi := 0, len(span)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if below(span[m], c) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	a, hi = lo, len(span)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if w := span[m]; w[depth] == c { // every word from a on is longer than depth
			lo = m + 1
		} else {
			hi = m
		}
	}
	return a, lo
}

// complete returns the index of the word that the prefix of depth bytes
// spells exactly (the first of its range, by byte order), or −1.
func (lx *Lexicon) complete(lo, hi int32, depth int) int32 {
	if lo < hi && len(lx.words[lo]) == depth {
		return lo
	}
	return -1
}
