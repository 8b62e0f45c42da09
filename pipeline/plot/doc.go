// Package plot draws figures of speech that are not pictures of an
// image: AlignmentPlot, a recognizer's attention (or CTC posteriors) over
// encoder frames under the utterance's spectrogram, on one time axis, with
// word boundaries and a recognized path.
//
// It lives apart from package vision (images and the CNN): a figure of
// speech needs no image decoder nor encoder. Both draw with the same kit,
// internal/figure: the colormaps (vision.Inferno is figure.Inferno), the
// Inconsolata labels, frames, dashes and colorbars, so that a caption's
// heat maps and a transcript's alignment look alike. Like vision it
// imports only the standard library and golang.org/x/image, never
// gorgonia; a test enforces this.
package plot

import (
	"errors"
)

var (
	// ErrOptions means a spectrogram, an alignment or an options struct
	// holds an invalid value (an inconsistent shape, a NaN, a boundary
	// outside the audio).
	ErrOptions = errors.New("plot: invalid options")
	// ErrWeights means attention weights are unusable: a NaN, an infinity,
	// a negative value, or a row whose sum is not 1 (within
	// figure.WeightSumTolerance); for posteriors, a value outside [0, 1].
	ErrWeights = errors.New("plot: invalid attention weights")
)

// MaxWidth is the widest plot area AlignmentPlot draws, in pixels.
const MaxWidth = 4096
