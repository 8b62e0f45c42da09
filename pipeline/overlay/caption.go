package overlay

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/attend-go/attend/vision"
)

// Sentinel errors that callers test with errors.Is.
var (
	// ErrCaption means a Caption is inconsistent: per-word slices of
	// different lengths, a bad grid, a cell outside it, or weights that
	// are not a distribution (those also wrap vision.ErrWeights).
	ErrCaption = errors.New("overlay: invalid caption")
	// ErrWord means a word selection names a word the caption lacks.
	ErrWord = errors.New("overlay: no such word")
)

// Caption is what the overlay of one image shows: the words a caption
// model generated and, for each, the attention weights with which it was
// generated. It is this package's own type, so that anything producing
// Show-Attend-Tell style attention can be drawn.
type Caption struct {
	// Words are the generated words, without the start and end tokens.
	Words []string
	// Attention holds, per word, the Rows×Cols attention weights α_t
	// over the encoder's grid, row-major (cell (r, c) at r·Cols + c),
	// summing to 1.
	Attention [][]float32
	// Beta holds, per word, the gate β_t (Xu et al. §4.2.1); nil for a
	// model without the gate. A NaN entry means "none" for that word.
	Beta []float32
	// Sentinel holds, per word, adaptive attention's sentinel weight β_t
	// ∈ [0, 1] (Lu et al. 2017): the share of the word's context that
	// came from the decoder's memory, not the image; nil for a model
	// without a sentinel. Each panel shows it in its label and, as a bar
	// along its foot, 1 − β_t: how much the word looked. NaN: none.
	Sentinel []float32
	// Rows and Cols are the encoder's grid: 7×7 for MobileNetV2's final
	// map, 14×14 for its block-13 map.
	Rows, Cols int
	// Hard marks a hard-attention model. Its panels outline, in solid
	// lines, the cell of Cells that each word read.
	Hard bool
	// Cells holds, per word, the index (r·Cols + c) of the cell hard
	// attention sampled or took as its argmax; nil when the decoder read
	// no single cell (soft attention, or hard attention decoding with the
	// expectation, where Options.Peak outlines the most attended cell).
	// Ignored unless Hard.
	Cells []int
	// Fit and CropFraction say which part of the image the grid covers:
	// they must be those of the vision.Preprocessor that made the
	// encoder's input (zero values: vision.Squash, the Preprocessor's
	// default; CropFraction 0 is the whole shorter side).
	Fit          vision.Fit
	CropFraction float64
}

// Text returns the caption as a sentence: the words joined by spaces.
func (c *Caption) Text() string { return strings.Join(c.Words, " ") }

// Check reports the first inconsistency of c, with an error wrapping
// ErrCaption that names the word concerned.
func (c *Caption) Check() error {
	n := len(c.Words)
	switch {
	case c.Rows < 1 || c.Cols < 1 || c.Rows > vision.MaxTensorSize || c.Cols > vision.MaxTensorSize:
		return fmt.Errorf("%w: grid %d×%d, want 1..%d rows and columns", ErrCaption, c.Rows, c.Cols, vision.MaxTensorSize)
	case len(c.Attention) != n:
		return fmt.Errorf("%w: %d attention rows for %d words", ErrCaption, len(c.Attention), n)
	case c.Beta != nil && len(c.Beta) != n:
		return fmt.Errorf("%w: %d gate values β for %d words", ErrCaption, len(c.Beta), n)
	case c.Sentinel != nil && len(c.Sentinel) != n:
		return fmt.Errorf("%w: %d sentinel weights for %d words", ErrCaption, len(c.Sentinel), n)
	case c.Hard && c.Cells != nil && len(c.Cells) != n:
		return fmt.Errorf("%w: %d attended cells for %d words", ErrCaption, len(c.Cells), n)
	}
	for i, w := range c.Attention {
		if err := vision.CheckWeights(w, c.Rows, c.Cols); err != nil {
			return fmt.Errorf("%w: word %d (%q): %w", ErrCaption, i+1, c.Words[i], err)
		}
		if c.Beta != nil {
			if b := float64(c.Beta[i]); math.IsInf(b, 0) || b < 0 || b > 1 {
				return fmt.Errorf("%w: word %d (%q): β = %v, want a value in [0, 1] (or NaN for none)", ErrCaption, i+1, c.Words[i], c.Beta[i])
			}
		}
		if c.Sentinel != nil {
			if b := float64(c.Sentinel[i]); math.IsInf(b, 0) || b < 0 || b > 1 {
				return fmt.Errorf("%w: word %d (%q): sentinel weight %v, want a value in [0, 1] (or NaN for none)", ErrCaption, i+1, c.Words[i], c.Sentinel[i])
			}
		}
		if c.Hard && c.Cells != nil {
			if k := c.Cells[i]; k < 0 || k >= c.Rows*c.Cols {
				return fmt.Errorf("%w: word %d (%q): attended cell %d outside the %d×%d grid", ErrCaption, i+1, c.Words[i], k, c.Rows, c.Cols)
			}
		}
	}
	return nil
}

// panels returns the vision panels of the selected words (all when
// words is nil), after checking c.
func (c *Caption) panels(words []int, peak bool) ([]vision.Panel, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	if words == nil {
		words = make([]int, len(c.Words))
		for i := range words {
			words[i] = i
		}
	}
	panels := make([]vision.Panel, 0, len(words))
	for _, i := range words {
		if i < 0 || i >= len(c.Words) {
			return nil, fmt.Errorf("%w: word %d of %s", ErrWord, i+1, c.describe())
		}
		p := vision.Panel{Word: c.Words[i], Weights: c.Attention[i], Beta: float32(math.NaN()), Sentinel: float32(math.NaN()), Peak: peak}
		if c.Beta != nil {
			p.Beta = c.Beta[i]
		}
		if c.Sentinel != nil {
			p.Sentinel = c.Sentinel[i]
		}
		if c.Hard && c.Cells != nil {
			p.Marker = &vision.Cell{Row: c.Cells[i] / c.Cols, Col: c.Cells[i] % c.Cols}
		}
		panels = append(panels, p)
	}
	return panels, nil
}

// describe names the caption in errors: its length and its text.
func (c *Caption) describe() string {
	switch len(c.Words) {
	case 0:
		return "the empty caption"
	case 1:
		return fmt.Sprintf("the 1-word caption %q", c.Text())
	}
	return fmt.Sprintf("the %d-word caption %q", len(c.Words), c.Text())
}
