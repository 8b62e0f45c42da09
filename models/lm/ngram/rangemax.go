package ngram

import (
	"math"
	"math/bits"
)

// rangeBlock is the block size of rangeMax: ranges shorter than two blocks
// are scanned, longer ones read the sparse table of block maxima.
const rangeBlock = 32

// rangeMax answers max(v[i:j]) over a fixed slice v: a sparse table
// (Bender & Farach-Colton 2000) over the maxima of blocks of rangeBlock
// values. table[l][b] = max of blocks b … b+2^l−1; a query scans at most
// two partial blocks and reads two table entries. Memory: about
// len(v)/32 · log2(len(v)/32) float32.
type rangeMax struct {
	table [][]float32
}

// newRangeMax builds the table over v.
func newRangeMax(v []float32) rangeMax {
	nb := len(v) / rangeBlock
	if nb == 0 {
		return rangeMax{}
	}
	level := make([]float32, nb)
	for b := range level {
		m := v[b*rangeBlock]
		for _, x := range v[b*rangeBlock+1 : (b+1)*rangeBlock] {
			m = max(m, x)
		}
		level[b] = m
	}
	table := [][]float32{level}
	for span := 1; 2*span <= nb; span *= 2 {
		prev := table[len(table)-1]
		next := make([]float32, nb-2*span+1)
		for b := range next {
			next[b] = max(prev[b], prev[b+span])
		}
		table = append(table, next)
	}
	return rangeMax{table: table}
}

// max returns the maximum of v[i:j] for i < j; v must be the slice the
// table was built over.
func (r *rangeMax) max(v []float32, i, j int32) float32 {
	if j-i <= 2*rangeBlock || r.table == nil {
		return scanMax(v[i:j])
	}
	bi := (i + rangeBlock - 1) / rangeBlock // first whole block
	bj := j / rangeBlock                    // end of whole blocks
	m := scanMax(v[i : bi*rangeBlock])
	if bj*rangeBlock < j {
		m = max(m, scanMax(v[bj*rangeBlock:j]))
	}
	l := bits.Len32(uint32(bj-bi)) - 1
	t := r.table[l]
	return max(m, t[bi], t[bj-int32(1)<<l])
}

// scanMax returns the maximum of v, or −Inf for an empty v.
func scanMax(v []float32) float32 {
	m := float32(math.Inf(-1))
	for _, x := range v {
		m = max(m, x)
	}
	return m
}
