package metrics

import "slices"

// OpKind is one step of an alignment.
type OpKind uint8

// The four alignment steps. The zero value is Match.
const (
	Match OpKind = iota // ref[Ref] == hyp[Hyp]
	Sub                 // ref[Ref] replaced by hyp[Hyp]
	Del                 // ref[Ref] missing from the hypothesis (Hyp = -1)
	Ins                 // hyp[Hyp] not in the reference (Ref = -1)
)

// String returns "match", "sub", "del" or "ins".
func (k OpKind) String() string {
	switch k {
	case Match:
		return "match"
	case Sub:
		return "sub"
	case Del:
		return "del"
	case Ins:
		return "ins"
	}
	return "OpKind(?)"
}

// Op is one step of an alignment with the indices it consumes: Ref
// indexes the reference and Hyp the hypothesis; the side a step does not
// consume is -1 (Hyp for Del, Ref for Ins).
type Op struct {
	Kind     OpKind
	Ref, Hyp int
}

// MaxAlignCells bounds the dynamic-programming table for which Align
// keeps a backtrace: (len(ref)+1)·(len(hyp)+1) cells at 2 bits each, so
// at most 25 MB. Larger inputs still get exact counts from two rows of
// the table but no ops.
const MaxAlignCells = 100_000_000

// Align computes a minimum edit-distance (Levenshtein, unit costs)
// alignment of hyp against ref and returns its counts and its steps in
// order. Both sequences are read only.
//
// Ties between equally cheap alignments are broken by one rule in every
// cell, walking back from the end: a match or substitution first, then a
// deletion, then an insertion. So ref "a b" against hyp "b a" is two
// substitutions rather than a deletion and an insertion, and ref "a b"
// against hyp "c" deletes "a" and substitutes "c" for "b". Errors() is the
// edit distance whatever the rule; only its split into S, D and I depends
// on it. Kaldi's compute-wer takes a substitution only when it is
// strictly cheaper and otherwise an insertion before a deletion, and
// sclite's costs (substitution 4, deletion and insertion 3) prefer a
// deletion plus an insertion to two substitutions, so their splits can
// differ from ours on ties.
//
// Time is O(len(ref)·len(hyp)); memory is two rows of costs plus a 2-bit
// backtrace per cell. When the table has more than MaxAlignCells
// cells, Align returns the same counts and nil ops.
func Align[T comparable](ref, hyp []T) (EditCounts, []Op) {
	return alignWithin(ref, hyp, MaxAlignCells)
}

// alignWithin is Align with the backtrace limited to maxCells cells.
func alignWithin[T comparable](ref, hyp []T, maxCells int) (EditCounts, []Op) {
	if !fits(len(ref), len(hyp), maxCells) {
		return countEdits(ref, hyp), nil
	}
	return backtrace(traceEdits(ref, hyp), ref, hyp, true)
}

// errorCounts returns Align's counts without building the ops.
func errorCounts[T comparable](ref, hyp []T) EditCounts {
	if !fits(len(ref), len(hyp), MaxAlignCells) {
		return countEdits(ref, hyp)
	}
	c, _ := backtrace(traceEdits(ref, hyp), ref, hyp, false)
	return c
}

// fits reports whether (n+1)·(m+1) ≤ maxCells without overflowing.
func fits(n, m, maxCells int) bool {
	return m+1 <= maxCells/(n+1)
}

// Backtrace directions, 2 bits per cell.
const (
	fromDiag = iota // match or substitution: came from (i-1, j-1)
	fromUp          // deletion: came from (i-1, j)
	fromLeft        // insertion: came from (i, j-1)
)

// traceEdits runs the dynamic program row by row over the reference,
// keeping two rows of costs, and returns each cell's predecessor chosen
// by the tie rule of Align, 2 bits per cell, row-major over
// (len(ref)+1) × (len(hyp)+1).
func traceEdits[T comparable](ref, hyp []T) []byte {
	n, m := len(ref), len(hyp)
	width := m + 1
	trace := make([]byte, ((n+1)*width+3)/4)
	set := func(cell, dir int) { trace[cell>>2] |= byte(dir) << (2 * (cell & 3)) }
	prev := make([]int, width)
	cur := make([]int, width)
	for j := range prev {
		prev[j] = j
		set(j, fromLeft)
	}
	for i := 1; i <= n; i++ {
		cur[0] = i
		row := i * width
		set(row, fromUp)
		r := ref[i-1]
		for j := 1; j <= m; j++ {
			best, dir := prev[j-1], fromDiag
			if r != hyp[j-1] {
				best++
			}
			if up := prev[j] + 1; up < best {
				best, dir = up, fromUp
			}
			if left := cur[j-1] + 1; left < best {
				best, dir = left, fromLeft
			}
			cur[j] = best
			if dir != fromDiag {
				set(row+j, dir)
			}
		}
		prev, cur = cur, prev
	}
	return trace
}

// backtrace walks the recorded predecessors from the last cell to the
// first and returns the counts and, when withOps, the steps in forward
// order.
func backtrace[T comparable](trace []byte, ref, hyp []T, withOps bool) (EditCounts, []Op) {
	width := len(hyp) + 1
	c := EditCounts{Ref: len(ref), Hyp: len(hyp)}
	var ops []Op
	if withOps {
		ops = make([]Op, 0, len(ref)+len(hyp))
	}
	for i, j := len(ref), len(hyp); i > 0 || j > 0; {
		cell := i*width + j
		switch trace[cell>>2] >> (2 * (cell & 3)) & 3 {
		case fromDiag:
			i--
			j--
			kind := Match
			if ref[i] != hyp[j] {
				kind = Sub
				c.Sub++
			}
			if withOps {
				ops = append(ops, Op{Kind: kind, Ref: i, Hyp: j})
			}
		case fromUp:
			i--
			c.Del++
			if withOps {
				ops = append(ops, Op{Kind: Del, Ref: i, Hyp: -1})
			}
		default:
			j--
			c.Ins++
			if withOps {
				ops = append(ops, Op{Kind: Ins, Ref: -1, Hyp: j})
			}
		}
	}
	slices.Reverse(ops)
	return c, ops
}

// edits is one cell of the counts-only table: the counts of the best
// alignment of two prefixes, whose cost is their sum.
type edits struct{ sub, del, ins int }

func (e edits) cost() int { return e.sub + e.del + e.ins }

// countEdits runs the same dynamic program as traceEdits with the same
// tie rule but carries each cell's counts instead of a backtrace, in
// O(len(hyp)) memory.
func countEdits[T comparable](ref, hyp []T) EditCounts {
	n, m := len(ref), len(hyp)
	prev := make([]edits, m+1)
	cur := make([]edits, m+1)
	for j := range prev {
		prev[j] = edits{ins: j}
	}
	for i := 1; i <= n; i++ {
		cur[0] = edits{del: i}
		r := ref[i-1]
		for j := 1; j <= m; j++ {
			best := prev[j-1]
			if r != hyp[j-1] {
				best.sub++
			}
			if up := prev[j]; up.cost()+1 < best.cost() {
				best = up
				best.del++
			}
			if left := cur[j-1]; left.cost()+1 < best.cost() {
				best = left
				best.ins++
			}
			cur[j] = best
		}
		prev, cur = cur, prev
	}
	e := prev[m]
	return EditCounts{Ref: n, Sub: e.sub, Del: e.del, Ins: e.ins, Hyp: m}
}
