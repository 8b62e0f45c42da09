package metrics

import (
	"cmp"
	"slices"
)

// METEOR alignment, after Meteor 1.5's Aligner.align and Aligner.resolve:
// the search, its ordering and its tie-breaks are reproduced step for
// step, quirks included, because which alignment wins decides the stem
// matches and chunks, and so the score.

const (
	meteorBeam   = 40 // beam width (Constants.DEFAULT_BEAM_SIZE)
	moduleExact  = 0
	moduleStem   = 1
	meteorNoHyp  = -1
	meteorNoLast = -1
)

// meteorSearchWeights are the module weights the jar's aligner ranks
// partial alignments with (MeteorScorer.loadConfiguration): 1 for exact,
// 0.5 for the other modules, added to an int and so truncated.
var meteorSearchWeights = [2]float64{moduleExact: 1, moduleStem: 0.5}

// meteorMatch is a possible match of reference word j (its index in the
// per-word candidate list) with candidate word hyp.
type meteorMatch struct {
	hyp    int32
	module int8
}

// meteorPath is a partial alignment (the jar's PartialAlignment) with the
// statistics the search ranks it by. The jar's bookkeeping that the
// ranking never reads is left out; exact and stem count what the final
// alignment's statistics need. Which candidate words it uses is a bitset
// in its generation's bits.
type meteorPath struct {
	matches1, matches2 int // weighted (truncated) match totals per side
	chunks             int
	idx                int // next reference word
	lastMatchEnd       int // candidate index after the last match, or meteorNoLast
	distance           int
	exact, stem        int
	used               int // offset of the candidate-word bitset in meteorGen.bits
}

// meteorGen holds the paths of one step of the search. Only two
// generations live at a time, so memory stays O(beam · candidate length)
// however long the sentences.
type meteorGen struct {
	paths []meteorPath
	bits  []uint64
	order []int32 // path indices, best first after sorting
}

func (g *meteorGen) reset() {
	g.paths, g.bits, g.order = g.paths[:0], g.bits[:0], g.order[:0]
}

// add appends a copy of p whose bitset is src (words uint64s long) and
// returns its index.
func (g *meteorGen) add(p meteorPath, src []uint64) int32 {
	p.used = len(g.bits)
	g.bits = append(g.bits, src...)
	g.paths = append(g.paths, p)
	g.order = append(g.order, int32(len(g.paths)-1))
	return int32(len(g.paths) - 1)
}

// usedBits returns path i's bitset.
func (g *meteorGen) usedBits(i int32, words int) []uint64 {
	o := g.paths[i].used
	return g.bits[o : o+words]
}

// meteorAligner holds the scratch space of alignments; the zero value is
// ready to use and it grows to the largest sentence pair seen.
type meteorAligner struct {
	matches  [][]meteorMatch // [reference word] possible matches, exact ones first
	hypCover []int           // number of possible matches of each candidate word
	refCover []int
	fixed    []meteorMatch // [reference word] match fixed before the search, hyp = meteorNoHyp if none
	gens     [2]meteorGen
	words    int      // bitset length in uint64s
	bitsBuf  []uint64 // one path's bitset being built
}

// align returns the statistics of the best alignment of hyp with ref
// (word ids; stems maps ids to stem ids) by exact and, when withStems,
// stem matches.
func (a *meteorAligner) align(hyp, ref []int32, stems []int32, withStems bool) meteorStats {
	a.stage(hyp, ref, stems, withStems && !slices.Equal(hyp, ref))
	a.words = (len(hyp) + 63) / 64
	a.bitsBuf = slices.Grow(a.bitsBuf[:0], a.words)[:a.words]
	clear(a.bitsBuf)

	// One-to-one matches that overlap nothing are fixed (definite).
	for j := range ref {
		a.fixed[j] = meteorMatch{hyp: meteorNoHyp}
		if len(a.matches[j]) != 1 {
			continue
		}
		m := a.matches[j][0]
		if a.refCover[j] == 1 && a.hypCover[m.hyp] == 1 {
			a.fixed[j] = m
			setBit(a.bitsBuf, int(m.hyp))
		}
	}
	cur := &a.gens[0]
	cur.reset()
	cur.add(meteorPath{lastMatchEnd: meteorNoLast}, a.bitsBuf)
	p := a.resolve(len(ref))
	return meteorStats{candLen: len(hyp), refLen: len(ref), exact: p.exact, stem: p.stem, chunks: p.chunks}
}

func hasBit(b []uint64, i int) bool { return b[i/64]&(1<<(i%64)) != 0 }
func setBit(b []uint64, i int)      { b[i/64] |= 1 << (i % 64) }

// stage lists every possible match per reference word, exact matches
// (candidate order) before stem matches between different words, and
// counts how many matches cover each word.
func (a *meteorAligner) stage(hyp, ref []int32, stems []int32, withStems bool) {
	a.matches = slices.Grow(a.matches[:0], len(ref))[:len(ref)]
	a.fixed = slices.Grow(a.fixed[:0], len(ref))[:len(ref)]
	a.refCover = slices.Grow(a.refCover[:0], len(ref))[:len(ref)]
	a.hypCover = slices.Grow(a.hypCover[:0], len(hyp))[:len(hyp)]
	clear(a.refCover)
	clear(a.hypCover)
	for j, r := range ref {
		a.matches[j] = a.matches[j][:0]
		for i, h := range hyp {
			if h == r {
				a.matches[j] = append(a.matches[j], meteorMatch{hyp: int32(i), module: moduleExact})
				a.hypCover[i]++
				a.refCover[j]++
			}
		}
	}
	if !withStems {
		return
	}
	for j, r := range ref {
		for i, h := range hyp {
			if h != r && stems[h] == stems[r] {
				a.matches[j] = append(a.matches[j], meteorMatch{hyp: int32(i), module: moduleStem})
				a.hypCover[i]++
				a.refCover[j]++
			}
		}
	}
}

// extend records match m (at reference word j) on path p, as the jar
// does for both fixed and chosen matches.
func extend(p *meteorPath, j int, m meteorMatch) {
	w := meteorSearchWeights[m.module]
	p.matches1 = int(float64(p.matches1) + 1*w) // Java: int += double truncates
	p.matches2 = int(float64(p.matches2) + 1*w)
	if m.module == moduleExact {
		p.exact++
	} else {
		p.stem++
	}
	if p.lastMatchEnd != meteorNoLast && int(m.hyp) != p.lastMatchEnd {
		p.chunks++
	}
	p.idx = j + 1
	p.lastMatchEnd = int(m.hyp) + 1
}

// meteorAbs returns |x|.
func meteorAbs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// resolve runs the jar's beam search over n reference words from the one
// path in gens[0] and returns the best complete path. Each step sorts
// the current generation, expands its best meteorBeam paths into the
// next generation and swaps the two; the jar's in-place updates of a
// parent path become updates of a local copy that is added last, as the
// path that skips the word.
func (a *meteorAligner) resolve(n int) meteorPath {
	cur, next := &a.gens[0], &a.gens[1]
	for current := 0; current <= n; current++ {
		a.sortPaths(cur)
		next.reset()
		for rank := 0; rank < meteorBeam && rank < len(cur.order); rank++ {
			pi := cur.order[rank]
			p := cur.paths[pi]
			used := cur.usedBits(pi, a.words)
			if current == n { // complete: close the last chunk
				if p.lastMatchEnd != meteorNoLast {
					p.chunks++
				}
				next.add(p, used)
				continue
			}
			if f := a.fixed[current]; f.hyp != meteorNoHyp {
				extend(&p, current, f)
				p.distance += meteorAbs(current - int(f.hyp))
				next.add(p, used)
				continue
			}
			for _, m := range a.matches[current] {
				if hasBit(used, int(m.hyp)) {
					continue
				}
				child := p
				extend(&child, current, m)
				ci := next.add(child, used)
				setBit(next.usedBits(ci, a.words), int(m.hyp))
				// The jar adds the distance to the parent, not to the new
				// path (Aligner.resolve: "path.distance += …"), so later
				// siblings and the path that skips this word carry it.
				p.distance += meteorAbs(current - int(m.hyp))
			}
			if p.lastMatchEnd != meteorNoLast { // skip this reference word
				p.chunks++
				p.lastMatchEnd = meteorNoLast
			}
			p.idx++
			next.add(p, used)
		}
		if len(next.order) == 0 {
			pi := cur.order[0]
			next.add(cur.paths[pi], cur.usedBits(pi, a.words))
		}
		cur, next = next, cur
	}
	a.sortPaths(cur)
	return cur.paths[cur.order[0]]
}

// sortPaths orders g.order best first, stably, by the jar's
// PARTIAL_COMPARE_TOTAL: more weighted matches, then fewer chunks, then
// less distance.
func (a *meteorAligner) sortPaths(g *meteorGen) {
	slices.SortStableFunc(g.order, func(x, y int32) int {
		px, py := &g.paths[x], &g.paths[y]
		if c := cmp.Compare(py.matches1+py.matches2, px.matches1+px.matches2); c != 0 {
			return c
		}
		if c := cmp.Compare(px.chunks, py.chunks); c != 0 {
			return c
		}
		return cmp.Compare(px.distance, py.distance)
	})
}
