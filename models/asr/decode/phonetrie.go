package decode

import (
	"slices"
	"sync"

	"github.com/attend-go/attend/models/lm/ngram"
)

// phoneTrie is the prefix tree of the pronunciations of a word LM's
// lexicon words that a PhoneDict knows, for the phone beam search
// (phoneBeam). Node 0 is the root; a node's children are the nodes
// child[off[n]:off[n+1]], reached by the phones phone[off[n]:off[n+1]]
// (ascending). The words whose pronunciation ends at node n are the
// lexicon indices ends[endOff[n]:endOff[n+1]]. la[n] is the unigram
// look-ahead of n: the best log p(w) + bonus(w) of a word w ending at n
// or below it (the n-gram score replaces it when the word ends).
type phoneTrie struct {
	off, child   []int32
	phone        []int32
	endOff, ends []int32
	la           []float32
}

// newPhoneTrie builds the trie of lx's words through d. A word with
// several pronunciations ends at several nodes; a word d lacks ends at
// none (the attention and character CTC searches still spell it).
func newPhoneTrie(d *PhoneDict, w *WordLM) *phoneTrie {
	parent, label, endsAt := trieNodes(pronunciations(d, w.Lexicon))
	t := layOutTrie(parent, label)
	null := w.Model.Null()
	for i := range parent {
		t.la[i] = negInf32
		for _, word := range endsAt[i] {
			t.ends = append(t.ends, word)
			lp, _ := w.wordEnd(null, word)
			t.la[i] = max(t.la[i], lp)
		}
		t.endOff[i+1] = int32(len(t.ends))
	}
	for c := len(parent) - 1; c > 0; c-- { // children come after their parents
		t.la[parent[c]] = max(t.la[parent[c]], t.la[c])
	}
	return t
}

// pronunciation is one way to say lexicon word word.
type pronunciation struct {
	phones []int
	word   int32
}

// pronunciations lists the pronunciations d knows of lx's words, sorted
// by their phones.
func pronunciations(d *PhoneDict, lx *Lexicon) []pronunciation {
	var entries []pronunciation
	for i, word := range lx.words {
		for _, p := range d.Pronunciations(word) {
			entries = append(entries, pronunciation{p, int32(i)})
		}
	}
	slices.SortFunc(entries, func(a, b pronunciation) int { return slices.Compare(a.phones, b.phones) })
	return entries
}

// trieNodes walks the sorted pronunciations keeping the path of the
// previous one, so that a node's children are created in phone order:
// per node (0 the root) its parent, the phone leading to it and the
// words that end there.
func trieNodes(entries []pronunciation) (parent, label []int32, endsAt [][]int32) {
	parent, label, endsAt = []int32{-1}, []int32{0}, [][]int32{nil}
	var path []int32 // nodes of the previous pronunciation, below the root
	var prev []int
	for _, e := range entries {
		common := 0
		for common < len(prev) && common < len(e.phones) && prev[common] == e.phones[common] {
			common++
		}
		path = path[:common]
		for _, ph := range e.phones[common:] {
			up := int32(0)
			if len(path) > 0 {
				up = path[len(path)-1]
			}
			parent, label, endsAt = append(parent, up), append(label, int32(ph)), append(endsAt, nil)
			path = append(path, int32(len(parent)-1))
		}
		end := int32(0)
		if len(path) > 0 {
			end = path[len(path)-1]
		}
		if !slices.Contains(endsAt[end], e.word) {
			endsAt[end] = append(endsAt[end], e.word)
		}
		prev = e.phones
	}
	return parent, label, endsAt
}

// layOutTrie stores the children of the nodes (parent, label) in
// compressed rows, in creation order (ascending phones), and sizes the
// word ends and look-aheads.
func layOutTrie(parent, label []int32) *phoneTrie {
	n := len(parent)
	t := &phoneTrie{off: make([]int32, n+1), child: make([]int32, 0, n), phone: make([]int32, 0, n),
		endOff: make([]int32, n+1), la: make([]float32, n)}
	for c := 1; c < n; c++ {
		t.off[parent[c]+1]++
	}
	for i := range n {
		t.off[i+1] += t.off[i]
	}
	t.child, t.phone = t.child[:n-1], t.phone[:n-1]
	fill := slices.Clone(t.off[:n])
	for c := 1; c < n; c++ {
		p := parent[c]
		t.child[fill[p]], t.phone[fill[p]] = int32(c), label[c]
		fill[p]++
	}
	return t
}

// phoneTries caches a WordLM's phoneTrie per PhoneDict (usually one).
type phoneTries struct {
	mu    sync.Mutex
	tries map[*PhoneDict]*phoneTrie
}

// phoneTrie returns the trie of w's lexicon through d, built on first use.
func (w *WordLM) phoneTrie(d *PhoneDict) *phoneTrie {
	w.tries.mu.Lock()
	defer w.tries.mu.Unlock()
	if t := w.tries.tries[d]; t != nil {
		return t
	}
	if w.tries.tries == nil {
		w.tries.tries = map[*PhoneDict]*phoneTrie{}
	}
	t := newPhoneTrie(d, w)
	w.tries.tries[d] = t
	return t
}

// wordEnd returns the n-gram score of lexicon word i after ctx, with its
// bonus, and the context after it (unknown-word scoring for a word the
// LM lacks).
func (w *WordLM) wordEnd(ctx ngram.State, i int32) (float32, ngram.State) {
	lx := w.Lexicon
	if lx.inLM[i] {
		lp, next := w.Model.Score(ctx, lx.ids[i])
		return lp + lx.bonus[i], next
	}
	lp, next := w.unknown(ctx)
	return lp + lx.bonus[i], next
}
