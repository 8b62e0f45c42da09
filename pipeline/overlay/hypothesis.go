package overlay

import (
	"github.com/attend-go/attend/models/caption"
)

// FromHypothesis returns the Caption of h, a caption found by a model
// with config cfg (Greedy or Beam) over an encoder grid of rows×cols
// cells (rows·cols = cfg.Regions). The slices are h's, not copies. The
// Caption's Fit and CropFraction are left at their zero values, the
// Preprocessor's defaults; set them if the encoder's input was prepared
// otherwise.
//
// β is kept only for a model with the gate, the sentinel weights only
// for adaptive attention (without it, search reports
// 1 for every word, which says nothing). A hard-attention model that
// decodes with Argmax read the most attended cell at every word, so Cells
// gets those cells; one that decodes with the expectation read no single
// cell, so Cells stays nil.
func FromHypothesis(h *caption.Hypothesis, cfg caption.Config, rows, cols int) Caption {
	return fromWeights(h.Words, h.Attention, h.Beta, h.Sentinel, cfg, rows, cols)
}

// fromWeights returns the Caption of words said with attention α (per
// word rows·cols weights), gates β and sentinel weights (nil for none)
// by a model with config cfg: what FromHypothesis and FromResult share.
func fromWeights(words []string, attention [][]float32, beta, sentinel []float32, cfg caption.Config, rows, cols int) Caption {
	cfg = cfg.Defaults()
	c := Caption{Words: words, Attention: attention, Sentinel: sentinel, Rows: rows, Cols: cols}
	if !cfg.NoGate {
		c.Beta = beta
	}
	if cfg.Attention == caption.Hard {
		c.Hard = true
		if cfg.Hard.Inference == caption.Argmax {
			c.Cells = make([]int, len(attention))
			for i, w := range attention {
				c.Cells[i] = argmax(w)
			}
		}
	}
	return c
}

// argmax returns the index of the first largest value.
func argmax(w []float32) int {
	best := 0
	for i, v := range w {
		if v > w[best] {
			best = i
		}
	}
	return best
}
