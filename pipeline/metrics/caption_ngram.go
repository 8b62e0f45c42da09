package metrics

import (
	"cmp"
	"slices"
)

// maxOrder is the longest n-gram BLEU and CIDEr-D count.
const maxOrder = 4

// ngramKey is an n-gram of 1 to maxOrder word ids; the positions past
// its order hold −1. Keys compare lexicographically (ngramCompare), so
// n-gram count lists can be merged.
type ngramKey [maxOrder]int32

// order returns n, the number of words in g.
func (g ngramKey) order() int {
	n := 0
	for n < maxOrder && g[n] >= 0 {
		n++
	}
	return n
}

func ngramCompare(a, b ngramKey) int {
	for i := range a {
		if c := cmp.Compare(a[i], b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// ngramCount is one distinct n-gram of a sentence and how often it
// occurs there.
type ngramCount struct {
	key   ngramKey
	count int32
}

// countNgrams appends to dst the distinct n-grams of orders 1…maxOrder
// of the sentence ids with their counts, sorted by key, and returns the
// extended slice. dst's contents are overwritten.
func countNgrams(dst []ngramCount, ids []int32) []ngramCount {
	dst = dst[:0]
	for n := 1; n <= maxOrder; n++ {
		for i := 0; i+n <= len(ids); i++ {
			k := ngramKey{-1, -1, -1, -1}
			copy(k[:n], ids[i:i+n])
			dst = append(dst, ngramCount{key: k, count: 1})
		}
	}
	sortNgramCounts(dst)
	return mergeCounts(dst, func(a, b int32) int32 { return a + b })
}

// sortNgramCounts sorts c by key.
func sortNgramCounts(c []ngramCount) {
	slices.SortFunc(c, func(a, b ngramCount) int { return ngramCompare(a.key, b.key) })
}

// mergeCounts folds runs of equal keys in the sorted list c into one
// entry, combining their counts with f, in place.
func mergeCounts(c []ngramCount, f func(a, b int32) int32) []ngramCount {
	out := c[:0]
	for _, e := range c {
		if n := len(out); n > 0 && out[n-1].key == e.key {
			out[n-1].count = f(out[n-1].count, e.count)
			continue
		}
		out = append(out, e)
	}
	return out
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
