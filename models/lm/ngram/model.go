package ngram

import "math"

// WordID numbers a word of a Model's vocabulary: the index of the word in
// Words, which is sorted by byte order, so the words that share a spelling
// prefix have consecutive ids.
type WordID int32

// State is a context: the longest suffix of the history that the model
// knows as a context (it has successors or a back-off weight). States are
// small values, cheap to copy and compare: two histories with equal States
// have the same future. Null is the empty context. A State is only
// meaningful for the Model that returned it; the query methods panic on
// a State that is out of range (a programmer error, as an index is).
type State int32

// NoWord is returned by ID for a word outside the vocabulary.
const NoWord WordID = -1

// Special words of the ARPA convention.
const (
	SentenceStart = "<s>"
	SentenceEnd   = "</s>"
	UnknownWord   = "<unk>"
)

// Log10 of the probability given to a special word a model lacks:
// <s> (never predicted; SRILM and KenLM write −99) and <unk> or </s>
// (KenLM's −100, so an unknown word costs a fixed, huge penalty).
const (
	log10Never   = -99
	log10Missing = -100
)

// ln10 converts log10 to natural log.
const ln10 = math.Ln10

// Model is a back-off word n-gram language model (see the package
// documentation). It is immutable and safe for concurrent use.
type Model struct {
	order int
	vocab []string          // sorted by byte order; WordID indexes it
	ids   map[string]WordID // vocab → id
	unk   WordID            // <unk>
	bos   WordID            // <s>
	eos   WordID            // </s>

	// The trie. Node 0 is the empty context, node 1+w the unigram w, then
	// the bigrams, trigrams, … each order sorted by (parent node, word),
	// which is the lexicographic order of the word ids.
	word  []int32   // word of the last position of the node's n-gram
	prob  []float32 // log10 p(word | parent context)
	bow   []float32 // log10 back-off weight of the node as a context
	child []int32   // the node's successors are nodes child[i]:child[i+1]
	back  []int32   // State of the longest proper suffix of the node's n-gram
	start []int32   // start[k] is the first node of order k; start[order+1] = len(word)

	rmq rangeMax // max of prob over node ranges, for LookAhead
}

// Order returns n, the longest n-gram of the model.
func (m *Model) Order() int { return m.order }

// Words returns the vocabulary in ascending byte order; WordID i is
// Words()[i]. It always holds <s>, </s> and <unk> (see Load for the
// probabilities given to those a file lacks). The slice must not be
// modified.
func (m *Model) Words() []string { return m.vocab }

// ID returns the id of word (after LoadOptions.MapWord, if any, was
// applied when loading: ID does not map), or NoWord and false.
func (m *Model) ID(word string) (WordID, bool) {
	id, ok := m.ids[word]
	if !ok {
		return NoWord, false
	}
	return id, true
}

// Unknown returns the id of <unk>, which scores every word outside the
// vocabulary.
func (m *Model) Unknown() WordID { return m.unk }

// Null returns the empty context: Score(Null(), w) is the unigram p(w).
func (m *Model) Null() State { return 0 }

// Begin returns the context after <s>, where sentences start.
func (m *Model) Begin() State { return m.stateOf(1 + int32(m.bos)) }

// NGrams returns the number of n-grams of order k (1 ≤ k ≤ Order),
// including the prefixes Load inserted and the special words it added.
func (m *Model) NGrams(k int) int {
	if k < 1 || k > m.order {
		return 0
	}
	return int(m.start[k+1] - m.start[k])
}

// stateOf returns the State of node x: x itself if it is a context,
// otherwise the State of its longest proper suffix.
func (m *Model) stateOf(x int32) State {
	if x == 0 || m.child[x+1] > m.child[x] || m.bow[x] != 0 {
		return State(x)
	}
	return State(m.back[x])
}

// findChild returns the successor of context node s with word w, or -1.
func (m *Model) findChild(s int32, w int32) int32 {
	if s == 0 {
		return 1 + w
	}
	lo, hi := m.child[s], m.child[s+1]
	if hi-lo <= 8 {
		for i := lo; i < hi; i++ {
			if m.word[i] == w {
				return i
			}
		}
		return -1
	}
	if i := m.lowerBound(lo, hi, w); i < hi && m.word[i] == w {
		return i
	}
	return -1
}

// lowerBound returns the first index i in [lo, hi) with word[i] ≥ w, or hi.
func (m *Model) lowerBound(lo, hi int32, w int32) int32 {
	for lo < hi {
		mid := int32(uint32(lo+hi) >> 1)
		if m.word[mid] < w {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
