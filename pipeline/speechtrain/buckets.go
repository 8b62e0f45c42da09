package speechtrain

import (
	"slices"

	"github.com/attend-go/attend/models/asr"
)

// bucketGrid is the fixed set of batch shapes a run trains on. Every
// compiled graph holds all of its intermediate values and gradients
// (≈ 0.2 GB + 75 KB per encoder frame × speller step for 16 utterances),
// so the grid is small: buckets at quantiles of the stacked length, finer
// towards the long tail (where padding costs most), each padded to the
// longest utterance and the longest transcript it holds.
type bucketGrid []asr.BatchKey

// gridQuantiles are the upper edges of the buckets.
var gridQuantiles = []float64{0.2, 0.35, 0.5, 0.62, 0.72, 0.8, 0.87, 0.92, 0.96, 0.985, 1}

func newBucketGrid(utts []*utterance, m *asr.Model, B int) bucketGrid {
	type ls struct{ t, s int }
	all := make([]ls, len(utts))
	for i, u := range utts {
		all[i] = ls{asr.StackedLength(u.Example.Frames, m.Config.Stack), len(u.Example.Tokens) + 1}
	}
	slices.SortFunc(all, func(a, b ls) int { return a.t - b.t })
	var grid bucketGrid
	lo := 0
	for _, q := range gridQuantiles {
		hi := int(q * float64(len(all)))
		if hi <= lo {
			continue
		}
		k := asr.BatchKey{B: B}
		for _, x := range all[lo:hi] {
			k.T, k.S = max(k.T, x.t), max(k.S, x.s)
		}
		k.T, k.S = roundUp(k.T, 8), roundUp(k.S, 8)
		if len(grid) > 0 {
			k.S = max(k.S, grid[len(grid)-1].S)
		}
		grid = append(grid, k)
		lo = hi
	}
	return grid
}

// key returns the first grid shape that holds the batch, or a shape
// rounded up from the batch itself when none does.
func (g bucketGrid) key(m *asr.Model, exs []asr.Example) asr.BatchKey {
	own := m.KeyFor(exs, 1, 1)
	for _, k := range g {
		if k.B == own.B && k.T >= own.T && k.S >= own.S {
			return k
		}
	}
	return m.KeyFor(exs, 32, 16)
}

func roundUp(x, step int) int { return (x + step - 1) / step * step }
