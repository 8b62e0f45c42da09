package whisper

// noRank marks a pair of parts whose concatenation is no token.
const noRank = int(^uint(0) >> 1)

// scanMergeLimit is the piece length (bytes) up to which bytePairMerge
// rescans all pairs after each merge, as tiktoken does; longer pieces use
// a heap so that a long run without spaces stays O(n log n).
const scanMergeLimit = 64

// bytePairMerge appends to dst the token ids of piece (not itself a
// token), merged as tiktoken's byte_pair_merge (src/lib.rs): start from
// single bytes and repeatedly merge the adjacent pair whose concatenation
// has the lowest rank, the leftmost pair on ties, until no adjacent pair
// is a token. Every single byte must be a token.
func bytePairMerge(dst []int, piece string, ranks map[string]int) []int {
	if len(piece) > scanMergeLimit {
		return bytePairMergeHeap(dst, piece, ranks)
	}
	return bytePairMergeScan(dst, piece, ranks)
}

// rankOf returns the rank of piece, or noRank.
func rankOf(ranks map[string]int, piece string) int {
	if r, ok := ranks[piece]; ok {
		return r
	}
	return noRank
}

// bytePairMergeScan is byte_pair_merge as tiktoken writes it: parts[i] is
// the start of part i and the rank of parts i and i+1 merged; two
// sentinels end the list.
func bytePairMergeScan(dst []int, piece string, ranks map[string]int) []int {
	type part struct{ start, rank int }
	var buf [scanMergeLimit + 2]part
	parts := buf[:0]
	for i := 0; i+1 < len(piece); i++ {
		parts = append(parts, part{i, rankOf(ranks, piece[i:i+2])})
	}
	parts = append(parts, part{len(piece) - 1, noRank}, part{len(piece), noRank})
	// pairRank is the rank of parts i and i+1 merged, given i+1 < len-1.
	pairRank := func(i int) int {
		if i+3 < len(parts) {
			return rankOf(ranks, piece[parts[i].start:parts[i+3].start])
		}
		return noRank
	}
	for {
		best, at := noRank, -1
		for i := 0; i < len(parts)-1; i++ {
			if parts[i].rank < best {
				best, at = parts[i].rank, i
			}
		}
		if at < 0 {
			break
		}
		if at > 0 {
			parts[at-1].rank = pairRank(at - 1)
		}
		parts[at].rank = pairRank(at)
		parts = append(parts[:at+1], parts[at+2:]...)
	}
	for i := 0; i+1 < len(parts); i++ {
		dst = append(dst, ranks[piece[parts[i].start:parts[i+1].start]])
	}
	return dst
}

// bytePairMergeHeap merges as bytePairMergeScan does, keeping candidate
// pairs in a heap ordered by (rank, start) with stale entries skipped: the
// same lowest-rank, leftmost pair is merged at every step.
func bytePairMergeHeap(dst []int, piece string, ranks map[string]int) []int {
	n := len(piece)
	// Parts are a linked list over byte positions: part starting at i
	// ends at next[i]; prev[i] is the start of the part before it.
	next := make([]int, n)
	prev := make([]int, n)
	alive := make([]bool, n)
	for i := range n {
		next[i], prev[i], alive[i] = i+1, i-1, true
	}
	// candidate returns the merge of the part at l with the next one.
	candidate := func(l int) (pairEntry, bool) {
		r := next[l]
		if r >= n {
			return pairEntry{}, false
		}
		rank := rankOf(ranks, piece[l:next[r]])
		return pairEntry{rank: rank, left: l, right: r, end: next[r]}, rank != noRank
	}
	h := make(pairHeap, 0, n)
	for i := 0; i+1 < n; i++ {
		if e, ok := candidate(i); ok {
			h = append(h, e)
		}
	}
	h.init()
	for len(h) > 0 {
		e := h.pop()
		if !alive[e.left] || !alive[e.right] || next[e.left] != e.right || next[e.right] != e.end {
			continue // stale: a neighbour has merged since
		}
		alive[e.right] = false
		next[e.left] = e.end
		if e.end < n {
			prev[e.end] = e.left
		}
		if p := prev[e.left]; p >= 0 {
			if c, ok := candidate(p); ok {
				h.push(c)
			}
		}
		if c, ok := candidate(e.left); ok {
			h.push(c)
		}
	}
	for i := 0; i < n; i = next[i] {
		dst = append(dst, ranks[piece[i:next[i]]])
	}
	return dst
}

// pairEntry is a candidate merge of the parts starting at left and right
// (right ending at end), valid while those boundaries stand.
type pairEntry struct{ rank, left, right, end int }

// pairHeap is a binary min-heap of candidate merges by rank, then
// position (typed, so that pushing allocates nothing per entry).
type pairHeap []pairEntry

func (h pairHeap) less(i, j int) bool {
	if h[i].rank != h[j].rank {
		return h[i].rank < h[j].rank
	}
	return h[i].left < h[j].left
}

func (h pairHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *pairHeap) push(e pairEntry) {
	*h = append(*h, e)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *pairHeap) pop() pairEntry {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	*h = s[:n]
	h.down(0)
	return top
}

func (h pairHeap) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, i) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
