package asr

import (
	"slices"
	"testing"
)

// TestPrefixRows checks ForceBatch's plan: one row per distinct prefix at
// each step, each extending its parent's row.
func TestPrefixRows(t *testing.T) {
	hyps := [][]int{{5, 6, 7}, {5, 6, 8}, {5}, {}, {9, 6}, {5, 6, 7}}
	steps := prefixRows(hyps)
	want := []struct{ parent, prev, row []int }{
		{[]int{0}, []int{EOS}, []int{0, 0, 0, 0, 0, 0}},
		{[]int{0, 0}, []int{5, 9}, []int{0, 0, 0, -1, 1, 0}},
		{[]int{0, 1}, []int{6, 6}, []int{0, 0, -1, -1, 1, 0}},
		{[]int{0, 0}, []int{7, 8}, []int{0, 1, -1, -1, -1, 0}},
	}
	if len(steps) != len(want) {
		t.Fatalf("%d steps, want %d", len(steps), len(want))
	}
	for i, w := range want {
		if got := steps[i]; !slices.Equal(got.parent, w.parent) || !slices.Equal(got.prev, w.prev) || !slices.Equal(got.row, w.row) {
			t.Errorf("step %d: parent %v prev %v row %v, want %v %v %v", i, got.parent, got.prev, got.row, w.parent, w.prev, w.row)
		}
	}
}
