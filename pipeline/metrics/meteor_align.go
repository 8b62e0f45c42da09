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
// alignment's statistics need.
type meteorPath struct {
	matches1, matches2 int // weighted (truncated) match totals per side
	chunks             int
	idx                int // next reference word
	lastMatchEnd       int // candidate index after the last match, or meteorNoLast
	distance           int
	exact, stem        int
	used               int // offset of the candidate-word bitset in meteorAligner.bits
}

// meteorAligner holds the scratch space of alignments; the zero value is
// ready to use and it grows to the largest sentence pair seen.
type meteorAligner struct {
	matches  [][]meteorMatch // [reference word] possible matches, exact ones first
	hypCover []int           // number of possible matches of each candidate word
	refCover []int
	fixed    []meteorMatch // [reference word] match fixed before the search, hyp = meteorNoHyp if none
	arena    []meteorPath
	bits     []uint64
	words    int // bitset length in uint64s
	paths    []int32
	next     []int32
}

// align returns the statistics of the best alignment of hyp with ref
// (word ids; stems maps ids to stem ids) by exact and, when withStems,
// stem matches.
func (a *meteorAligner) align(hyp, ref []int32, stems []int32, withStems bool) meteorStats {
	a.stage(hyp, ref, stems, withStems && !slices.Equal(hyp, ref))
	a.arena = a.arena[:0]
	a.bits = a.bits[:0]
	a.words = (len(hyp) + 63) / 64

	// One-to-one matches that overlap nothing are fixed (definite).
	start := a.newPath(-1)
	for j := range ref {
		a.fixed[j] = meteorMatch{hyp: meteorNoHyp}
		if len(a.matches[j]) != 1 {
			continue
		}
		m := a.matches[j][0]
		if a.refCover[j] == 1 && a.hypCover[m.hyp] == 1 {
			a.fixed[j] = m
			a.setUsed(start, int(m.hyp))
		}
	}
	best := a.resolve(start, len(ref))
	p := &a.arena[best]
	return meteorStats{candLen: len(hyp), refLen: len(ref), exact: p.exact, stem: p.stem, chunks: p.chunks}
}

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

// newPath adds a path to the arena, a copy of parent (or empty when
// parent < 0), and returns its index.
func (a *meteorAligner) newPath(parent int32) int32 {
	off := len(a.bits)
	if parent < 0 {
		a.arena = append(a.arena, meteorPath{lastMatchEnd: meteorNoLast})
		a.bits = append(a.bits, make([]uint64, a.words)...)
	} else {
		a.arena = append(a.arena, a.arena[parent])
		po := a.arena[parent].used
		a.bits = append(a.bits, a.bits[po:po+a.words]...)
	}
	a.arena[len(a.arena)-1].used = off
	return int32(len(a.arena) - 1)
}

func (a *meteorAligner) isUsed(p int32, hyp int) bool {
	return a.bits[a.arena[p].used+hyp/64]&(1<<(hyp%64)) != 0
}

func (a *meteorAligner) setUsed(p int32, hyp int) {
	a.bits[a.arena[p].used+hyp/64] |= 1 << (hyp % 64)
}

// extend records match m (at reference word j) on path p, as the jar
// does for both fixed and chosen matches.
func (a *meteorAligner) extend(p *meteorPath, j int, m meteorMatch) {
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

// resolve runs the jar's beam search from path start over n reference
// words and returns the best complete path.
func (a *meteorAligner) resolve(start int32, n int) int32 {
	a.next = append(a.next[:0], start)
	for current := 0; current <= n; current++ {
		a.paths, a.next = a.next, a.paths[:0]
		a.sortPaths(a.paths)
		for rank := 0; rank < meteorBeam && rank < len(a.paths); rank++ {
			pi := a.paths[rank]
			if current == n { // complete: close the last chunk
				if a.arena[pi].lastMatchEnd != meteorNoLast {
					a.arena[pi].chunks++
				}
				a.next = append(a.next, pi)
				continue
			}
			if f := a.fixed[current]; f.hyp != meteorNoHyp {
				p := &a.arena[pi]
				a.extend(p, current, f)
				p.distance += meteorAbs(current - int(f.hyp))
				a.next = append(a.next, pi)
				continue
			}
			for _, m := range a.matches[current] {
				if a.isUsed(pi, int(m.hyp)) {
					continue
				}
				ni := a.newPath(pi)
				a.setUsed(ni, int(m.hyp))
				a.extend(&a.arena[ni], current, m)
				// The jar adds the distance to the parent, not to the new
				// path (Aligner.resolve: "path.distance += …"), so later
				// siblings and the path that skips this word carry it.
				a.arena[pi].distance += meteorAbs(current - int(m.hyp))
				a.next = append(a.next, ni)
			}
			p := &a.arena[pi] // skip this reference word
			if p.lastMatchEnd != meteorNoLast {
				p.chunks++
				p.lastMatchEnd = meteorNoLast
			}
			p.idx++
			a.next = append(a.next, pi)
		}
		if len(a.next) == 0 {
			a.next = append(a.next, a.paths[0])
		}
	}
	a.sortPaths(a.next)
	return a.next[0]
}

// sortPaths orders paths best first, stably, by the jar's
// PARTIAL_COMPARE_TOTAL: more weighted matches, then fewer chunks, then
// less distance.
func (a *meteorAligner) sortPaths(paths []int32) {
	slices.SortStableFunc(paths, func(x, y int32) int {
		px, py := &a.arena[x], &a.arena[y]
		if c := cmp.Compare(py.matches1+py.matches2, px.matches1+px.matches2); c != 0 {
			return c
		}
		if c := cmp.Compare(px.chunks, py.chunks); c != 0 {
			return c
		}
		return cmp.Compare(px.distance, py.distance)
	})
}
