package ngram

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// grams holds the n-grams of one order before the trie is built: the
// word ids of n-gram i are words[i*n : i*n+n].
type grams struct {
	n         int
	words     []int32
	prob, bow []float32 // log10; prob NaN marks an inserted prefix
	line      []int32   // source line, for errors; 0 when none
}

func (g *grams) len() int             { return len(g.prob) }
func (g *grams) tuple(i int) []int32  { return g.words[i*g.n : i*g.n+g.n] }
func (g *grams) prefix(i int) []int32 { return g.words[i*g.n : i*g.n+g.n-1] }
func (g *grams) lineOf(i int) int     { return int(g.line[i]) }
func cmpTuple(a, b []int32) int       { return slices.Compare(a, b) }

func (g *grams) add(t []int32, p, b float32, line int32) {
	g.words = append(g.words, t...)
	g.prob = append(g.prob, p)
	g.bow = append(g.bow, b)
	g.line = append(g.line, line)
}

// sortGrams sorts g lexicographically by word ids (when it is not sorted
// already) and rejects duplicates.
func sortGrams(g *grams, vocab []string) error {
	sorted := true
	for i := 1; i < g.len(); i++ {
		if c := cmpTuple(g.tuple(i-1), g.tuple(i)); c >= 0 {
			sorted = false
			break
		}
	}
	if !sorted {
		perm := packedOrder(g, len(vocab))
		if perm == nil {
			perm = make([]int32, g.len())
			for i := range perm {
				perm[i] = int32(i)
			}
			slices.SortStableFunc(perm, func(a, b int32) int {
				return cmpTuple(g.tuple(int(a)), g.tuple(int(b)))
			})
		}
		out := grams{n: g.n, words: make([]int32, 0, len(g.words)), prob: make([]float32, 0, len(perm)),
			bow: make([]float32, 0, len(perm)), line: make([]int32, 0, len(perm))}
		for _, p := range perm {
			out.add(g.tuple(int(p)), g.prob[p], g.bow[p], g.line[p])
		}
		*g = out
	}
	for i := 1; i < g.len(); i++ {
		if cmpTuple(g.tuple(i-1), g.tuple(i)) == 0 {
			first, second := g.lineOf(i-1), g.lineOf(i)
			if first > second {
				first, second = second, first
			}
			return syntaxf(second, "duplicate %d-gram %q (first at line %d)", g.n, joinWords(vocab, g.tuple(i)), first)
		}
	}
	return nil
}

// joinWords spells an n-gram of ids.
func joinWords(vocab []string, t []int32) string {
	s := make([]string, len(t))
	for i, w := range t {
		s[i] = vocab[w]
	}
	return strings.Join(s, " ")
}

// completePrefixes adds to each order the prefixes of the next order's
// n-grams that it lacks, as SRILM-pruned files can lack them; their
// probabilities are NaN until the trie is built (see fillInserted). It
// returns how many it added. All orders must be sorted.
func completePrefixes(levels []*grams) int {
	added := 0
	for k := len(levels) - 1; k >= 1; k-- {
		hi, lo := levels[k], levels[k-1]
		var missing grams
		missing.n = lo.n
		j := 0
		for i := 0; i < hi.len(); i++ {
			p := hi.prefix(i)
			for j < lo.len() && cmpTuple(lo.tuple(j), p) < 0 {
				j++
			}
			if j < lo.len() && cmpTuple(lo.tuple(j), p) == 0 {
				continue
			}
			if n := missing.len(); n > 0 && cmpTuple(missing.tuple(n-1), p) == 0 {
				continue
			}
			missing.add(p, float32(math.NaN()), 0, hi.line[i])
		}
		if missing.len() == 0 {
			continue
		}
		added += missing.len()
		levels[k-1] = mergeGrams(lo, &missing)
	}
	return added
}

// mergeGrams merges two sorted, disjoint orders.
func mergeGrams(a, b *grams) *grams {
	out := &grams{n: a.n}
	i, j := 0, 0
	for i < a.len() || j < b.len() {
		if j == b.len() || (i < a.len() && cmpTuple(a.tuple(i), b.tuple(j)) < 0) {
			out.add(a.tuple(i), a.prob[i], a.bow[i], a.line[i])
			i++
		} else {
			out.add(b.tuple(j), b.prob[j], b.bow[j], b.line[j])
			j++
		}
	}
	return out
}

// build makes the Model of vocab (sorted, holding <s>, </s> and <unk>)
// and levels: levels[0] the unigrams in id order, levels[k] the n-grams
// of order k+1, each sorted and prefix-complete.
func build(vocab []string, levels []*grams) (*Model, error) {
	order := len(levels)
	m := &Model{order: order, vocab: vocab, ids: make(map[string]WordID, len(vocab))}
	for i, w := range vocab {
		m.ids[w] = WordID(i)
	}
	m.bos, m.eos, m.unk = m.ids[SentenceStart], m.ids[SentenceEnd], m.ids[UnknownWord]
	if levels[0].len() != len(vocab) {
		return nil, fmt.Errorf("ngram: %d unigrams for %d words", levels[0].len(), len(vocab))
	}

	m.start = make([]int32, order+2)
	m.start[1] = 1
	for k := 1; k <= order; k++ {
		m.start[k+1] = m.start[k] + int32(levels[k-1].len())
	}
	total := m.start[order+1]
	m.word = make([]int32, total)
	m.prob = make([]float32, total)
	m.bow = make([]float32, total)
	m.child = make([]int32, total+1)
	m.back = make([]int32, total)
	parent := make([]int32, total)
	m.word[0] = -1
	for k := 1; k <= order; k++ {
		g, s := levels[k-1], m.start[k]
		for i := 0; i < g.len(); i++ {
			m.word[s+int32(i)] = g.words[i*k+k-1]
		}
		copy(m.prob[s:], g.prob)
		copy(m.bow[s:], g.bow)
	}

	// Parents by a merge walk over each order and the one below it; the
	// successors of node x are then child[x]:child[x+1].
	m.child[0] = 1
	for k := 2; k <= order; k++ {
		g, s := levels[k-1], m.start[k]
		lo, ls := levels[k-2], m.start[k-1]
		j := 0
		for i := 0; i < g.len(); i++ {
			p := g.prefix(i)
			for cmpTuple(lo.tuple(j), p) < 0 {
				j++
			}
			parent[s+int32(i)] = ls + int32(j)
		}
	}
	for k := 1; k <= order; k++ {
		// child[x] for the nodes x of order k: first node of order k+1
		// whose parent is ≥ x.
		c, end := total, total
		if k < order {
			c, end = m.start[k+1], m.start[k+2]
		}
		for x := m.start[k]; x < m.start[k+1]; x++ {
			for c < end && parent[c] < x {
				c++
			}
			m.child[x] = c
		}
	}
	m.child[total] = total

	// Back-off links in node order (shorter n-grams first): the longest
	// proper suffix of h w is s w for the longest context s in the chain
	// of h's own suffix that has w as a successor.
	for x := m.start[2]; x < total; x++ {
		s, w := m.back[parent[x]], m.word[x]
		var suf int32
		for {
			if c := m.findChild(s, w); c >= 0 {
				suf = c
				break
			}
			s = m.back[s]
		}
		m.back[x] = int32(m.stateOf(suf))
	}
	for x := int32(1); x < total; x++ {
		if math.IsNaN(float64(m.prob[x])) {
			h := parent[x]
			lp, _ := m.score(m.back[h], m.word[x])
			m.prob[x] = m.bow[h] + lp
		}
	}
	m.rmq = newRangeMax(m.prob)
	return m, nil
}
