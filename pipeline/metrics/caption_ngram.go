package metrics

import "slices"

// maxOrder is the longest n-gram BLEU and CIDEr-D count.
const maxOrder = 4

// N-grams are interned as dense int32 ids: the id of an n-gram is looked
// up by the id of its (n−1)-word prefix and its last word, one uint64 map
// access per n-gram, and a sentence becomes a sorted list of (id, count)
// pairs that BLEU and CIDEr-D merge by id.

// gramTable maps n-grams of word ids to dense ids and records each id's
// order n.
type gramTable struct {
	ids   map[uint64]int32
	order []uint8
}

// newGramTable returns an empty table sized for about hint n-grams.
func newGramTable(hint int) *gramTable {
	return &gramTable{ids: make(map[uint64]int32, hint), order: make([]uint8, 0, hint)}
}

// gramOccurrences returns the number of n-grams of orders 1…maxOrder in a
// sentence of n words.
func gramOccurrences(n int) int {
	total := 0
	for k := range maxOrder {
		total += max(0, n-k)
	}
	return total
}

// gramKey is the map key of the n-gram with the given (n−1)-gram prefix
// id (−1 for a unigram) and last word id.
func gramKey(prefix, word int32) uint64 {
	return uint64(uint32(prefix))<<32 | uint64(uint32(word))
}

// gramInterner interns n-grams into local, first looking them up in base
// (read-only, may be nil), whose ids come first: a scorer built from a
// reference corpus keeps its table as base and interns the n-grams of
// each scored sentence in a local table of its own.
type gramInterner struct {
	base  *gramTable
	local *gramTable
}

func (g gramInterner) baseLen() int32 {
	if g.base == nil {
		return 0
	}
	return int32(len(g.base.order))
}

// intern returns the id of the n-gram of order n with the given prefix id
// and last word.
func (g gramInterner) intern(prefix, word int32, n int) int32 {
	k := gramKey(prefix, word)
	if g.base != nil {
		if id, ok := g.base.ids[k]; ok {
			return id
		}
	}
	id, ok := g.local.ids[k]
	if !ok {
		id = g.baseLen() + int32(len(g.local.order))
		g.local.ids[k] = id
		g.local.order = append(g.local.order, uint8(n))
	}
	return id
}

// order returns the order n of n-gram id.
func (g gramInterner) order(id int32) int {
	if b := g.baseLen(); id >= b {
		return int(g.local.order[id-b])
	}
	return int(g.base.order[id])
}

// gramCount is one distinct n-gram of a sentence and its count there.
type gramCount struct {
	id, count int32
}

// gramCounts appends to dst the distinct n-grams of orders 1…maxOrder of
// the sentence words (word ids), sorted by id, with their counts; scratch
// is reused and returned.
func (g gramInterner) gramCounts(dst []gramCount, words []int32, scratch []int32) ([]gramCount, []int32) {
	ids := scratch[:0]
	for i := range words {
		prefix := int32(-1)
		for n := 1; n <= maxOrder && i+n <= len(words); n++ {
			prefix = g.intern(prefix, words[i+n-1], n)
			ids = append(ids, prefix)
		}
	}
	slices.Sort(ids)
	for i, id := range ids {
		if i > 0 && id == ids[i-1] {
			dst[len(dst)-1].count++
			continue
		}
		dst = append(dst, gramCount{id: id, count: 1})
	}
	return dst, ids
}

// captionVocab interns words as dense ids.
type captionVocab struct {
	ids   map[string]int32
	words []string
}

func newCaptionVocab() *captionVocab {
	return &captionVocab{ids: make(map[string]int32)}
}

// intern returns the ids of tokens, adding new words.
func (v *captionVocab) intern(tokens []string) []int32 {
	out := make([]int32, len(tokens))
	for i, w := range tokens {
		id, ok := v.ids[w]
		if !ok {
			id = int32(len(v.words))
			v.ids[w] = id
			v.words = append(v.words, w)
		}
		out[i] = id
	}
	return out
}

// captionCorpus is a validated list of samples with words interned: the
// form every caption metric works on.
type captionCorpus struct {
	vocab *captionVocab
	cands [][]int32   // [sample] candidate word ids
	refs  [][][]int32 // [sample][reference] word ids

	// N-gram counts, made on first use (ngrams).
	grams     gramInterner
	candGrams [][]gramCount   // [sample]
	refGrams  [][][]gramCount // [sample][reference]
}

// newCaptionCorpus checks samples (ValidateSamples) and interns their
// words.
func newCaptionCorpus(samples []Sample) (*captionCorpus, error) {
	if err := ValidateSamples(samples); err != nil {
		return nil, err
	}
	c := &captionCorpus{
		vocab: newCaptionVocab(),
		cands: make([][]int32, len(samples)),
		refs:  make([][][]int32, len(samples)),
	}
	for i, s := range samples {
		c.cands[i] = c.vocab.intern(s.Cand)
		c.refs[i] = make([][]int32, len(s.Refs))
		for j, r := range s.Refs {
			c.refs[i][j] = c.vocab.intern(r)
		}
	}
	return c, nil
}

// ngrams makes the n-gram counts of every sentence, once.
func (c *captionCorpus) ngrams() {
	if c.candGrams != nil {
		return
	}
	occurrences := 0
	for i := range c.cands {
		occurrences += gramOccurrences(len(c.cands[i]))
		for _, r := range c.refs[i] {
			occurrences += gramOccurrences(len(r))
		}
	}
	// Distinct n-grams are fewer than occurrences; half is a fair guess
	// for captions.
	c.grams = gramInterner{local: newGramTable(occurrences / 2)}
	c.candGrams = make([][]gramCount, len(c.cands))
	c.refGrams = make([][][]gramCount, len(c.cands))
	all := make([]gramCount, 0, occurrences) // one backing array for every list
	var scratch []int32
	type span struct{ i, j, start int } // j = −1: the candidate
	var spans []span
	add := func(i, j int, words []int32) {
		start := len(all)
		all, scratch = c.grams.gramCounts(all, words, scratch)
		spans = append(spans, span{i, j, start})
	}
	for i := range c.cands {
		add(i, -1, c.cands[i])
		for j, r := range c.refs[i] {
			add(i, j, r)
		}
		c.refGrams[i] = make([][]gramCount, len(c.refs[i]))
	}
	for k, s := range spans {
		end := len(all)
		if k+1 < len(spans) {
			end = spans[k+1].start
		}
		list := all[s.start:end:end]
		if s.j < 0 {
			c.candGrams[s.i] = list
		} else {
			c.refGrams[s.i][s.j] = list
		}
	}
}
