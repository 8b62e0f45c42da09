package vision

import "github.com/attend-go/attend/internal/figure"

// Colormap maps a value in [0, 1] to a color through a 256-entry table
// (package internal/figure holds it, shared with the speech alignment
// plot). Viridis, Inferno and Turbo are matplotlib's perceptual maps; Mask
// draws attention as light over a darkened photo.
type Colormap = figure.Colormap

// The colormaps an overlay can draw with (OverlayOptions.Colormap).
var (
	Viridis = figure.Viridis
	Inferno = figure.Inferno
	Turbo   = figure.Turbo
	Mask    = figure.Mask
)

// ColormapByName returns the colormap called name ("viridis", "inferno",
// "turbo", "mask").
func ColormapByName(name string) (*Colormap, bool) { return figure.ColormapByName(name) }
