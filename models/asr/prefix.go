package asr

import "slices"

// prefixStep is one step of ForceBatch: its decoder rows, one per
// distinct prefix of the step's length.
type prefixStep struct {
	parent []int // per row: the row of the step before that it extends
	prev   []int // per row: the token it reads (EOS at step 0)
	row    []int // per transcript: its row (−1 once it has ended)
}

// prefixRows plans ForceBatch's steps: step i has one row per distinct
// prefix of i tokens among the transcripts at least i tokens long (step 0
// one row, the empty prefix), each extending its parent prefix's row.
func prefixRows(hyps [][]int) []prefixStep {
	longest := 0
	for _, h := range hyps {
		longest = max(longest, len(h))
	}
	steps := make([]prefixStep, longest+1)
	row := make([]int, len(hyps)) // every transcript starts in row 0
	steps[0] = prefixStep{parent: []int{0}, prev: []int{EOS}, row: slices.Clone(row)}
	for i := 1; i <= longest; i++ {
		st := prefixStep{row: make([]int, len(hyps))}
		seen := map[[2]int]int{} // (parent row, token) → row
		for r, h := range hyps {
			if i > len(h) {
				st.row[r] = -1
				continue
			}
			key := [2]int{row[r], h[i-1]}
			n, ok := seen[key]
			if !ok {
				n = len(st.parent)
				seen[key] = n
				st.parent = append(st.parent, row[r])
				st.prev = append(st.prev, h[i-1])
			}
			st.row[r] = n
		}
		row = st.row
		steps[i] = st
	}
	return steps
}
