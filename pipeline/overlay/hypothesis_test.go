package overlay

import (
	"slices"
	"testing"

	"github.com/attend-go/attend/models/caption"
)

func TestFromHypothesis(t *testing.T) {
	c := testCaption()
	h := &caption.Hypothesis{Words: c.Words, Attention: c.Attention, Beta: []float32{0.5, 0.5, 0.5, 0.5}}
	argmaxes := make([]int, len(h.Attention))
	for i, w := range h.Attention {
		for k, v := range w {
			if v > w[argmaxes[i]] {
				argmaxes[i] = k
			}
		}
	}
	tests := []struct {
		name      string
		cfg       caption.Config
		beta      bool
		hard      bool
		wantCells []int
	}{
		{name: "soft", cfg: caption.Config{}, beta: true},
		{name: "soft without gate", cfg: caption.Config{NoGate: true}},
		{name: "hard expectation", cfg: caption.Config{Attention: caption.Hard}, beta: true, hard: true},
		{name: "hard argmax", cfg: caption.Config{Attention: caption.Hard, Hard: caption.HardConfig{Inference: caption.Argmax}}, beta: true, hard: true, wantCells: argmaxes},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := FromHypothesis(h, tc.cfg, 3, 4)
			if err := got.Check(); err != nil {
				t.Fatal(err)
			}
			if got.Rows != 3 || got.Cols != 4 || got.Text() != "a red ball flies" || len(got.Attention) != 4 {
				t.Errorf("caption %+v", got)
			}
			if (got.Beta != nil) != tc.beta || got.Hard != tc.hard || !slices.Equal(got.Cells, tc.wantCells) {
				t.Errorf("β %v hard %v cells %v; want β %v hard %v cells %v", got.Beta, got.Hard, got.Cells, tc.beta, tc.hard, tc.wantCells)
			}
		})
	}
}
