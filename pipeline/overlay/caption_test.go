package overlay

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/attend-go/attend/vision"
)

func TestCaptionCheck(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		name   string
		modify func(c *Caption)
		want   string // "" means valid
	}{
		{name: "valid", modify: func(c *Caption) {}},
		{name: "valid without beta", modify: func(c *Caption) { c.Beta = nil }},
		{name: "valid hard", modify: func(c *Caption) { c.Hard, c.Cells = true, []int{0, 3, 7, 11} }},
		{name: "cells ignored unless hard", modify: func(c *Caption) { c.Cells = []int{-5} }},
		{name: "empty caption", modify: func(c *Caption) { c.Words, c.Attention, c.Beta = nil, nil, nil }},
		{name: "no grid", modify: func(c *Caption) { c.Rows = 0 }, want: "grid 0×4"},
		{name: "missing attention", modify: func(c *Caption) { c.Attention = c.Attention[:3] }, want: "3 attention rows for 4 words"},
		{name: "missing beta", modify: func(c *Caption) { c.Beta = c.Beta[:1] }, want: "1 gate values β for 4 words"},
		{name: "missing cells", modify: func(c *Caption) { c.Hard, c.Cells = true, []int{1} }, want: "1 attended cells for 4 words"},
		{name: "short weights", modify: func(c *Caption) { c.Attention[2] = c.Attention[2][:11] }, want: `word 3 ("ball"): vision: invalid attention weights: 11 weights for a 3×4 grid`},
		{name: "nan weight", modify: func(c *Caption) { c.Attention[0][5] = nan }, want: `word 1 ("a")`},
		{name: "logits", modify: func(c *Caption) {
			for i := range c.Attention[1] {
				c.Attention[1][i] *= 3
			}
		}, want: "weights sum to 3"},
		{name: "beta above 1", modify: func(c *Caption) { c.Beta[1] = 1.5 }, want: `word 2 ("red"): β = 1.5`},
		{name: "valid with sentinel", modify: func(c *Caption) { c.Beta, c.Sentinel = nil, []float32{0.9, 0.1, 0, nan} }},
		{name: "missing sentinel", modify: func(c *Caption) { c.Sentinel = []float32{0.5} }, want: "1 sentinel weights for 4 words"},
		{name: "sentinel below 0", modify: func(c *Caption) { c.Sentinel = []float32{0.5, -0.1, 0.5, 0.5} }, want: `word 2 ("red"): sentinel weight -0.1`},
		{name: "cell outside", modify: func(c *Caption) { c.Hard, c.Cells = true, []int{0, 12, 0, 0} }, want: `word 2 ("red"): attended cell 12 outside the 3×4 grid`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := testCaption()
			tc.modify(c)
			err := c.Check()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Check: %v", err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrCaption) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Check = %v, want ErrCaption containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}

// TestPanelsAreDistributions checks what reaches the drawing: each panel
// carries its word's weights unchanged (a distribution summing to 1), β
// only when known, and a marker exactly for hard attention with cells.
func TestPanelsAreDistributions(t *testing.T) {
	c := testCaption()
	c.Hard, c.Cells = true, []int{0, 3, 7, 11}
	panels, err := c.panels(nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(panels) != len(c.Words) {
		t.Fatalf("%d panels for %d words", len(panels), len(c.Words))
	}
	for i, p := range panels {
		var sum float64
		for _, v := range p.Weights {
			sum += float64(v)
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Errorf("panel %d: weights sum to %v", i, sum)
		}
		if err := vision.CheckWeights(p.Weights, c.Rows, c.Cols); err != nil {
			t.Errorf("panel %d: %v", i, err)
		}
		if p.Word != c.Words[i] || !p.Peak {
			t.Errorf("panel %d: word %q peak %v", i, p.Word, p.Peak)
		}
		if want := (vision.Cell{Row: c.Cells[i] / 4, Col: c.Cells[i] % 4}); p.Marker == nil || *p.Marker != want {
			t.Errorf("panel %d: marker %v, want %v", i, p.Marker, want)
		}
	}
	if math.IsNaN(float64(panels[0].Beta)) || !math.IsNaN(float64(panels[3].Beta)) {
		t.Errorf("β: %v", []float32{panels[0].Beta, panels[3].Beta})
	}

	c.Beta, c.Hard = nil, false
	panels, err = c.panels([]int{2}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(panels) != 1 || panels[0].Word != "ball" || panels[0].Marker != nil || !math.IsNaN(float64(panels[0].Beta)) {
		t.Errorf("selected panel: %+v", panels)
	}
	if _, err := c.panels([]int{4}, false); !errors.Is(err, ErrWord) || !strings.Contains(err.Error(), `word 5 of the 4-word caption "a red ball flies"`) {
		t.Errorf("word 5: %v", err)
	}
}
