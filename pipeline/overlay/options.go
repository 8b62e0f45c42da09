package overlay

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/attend-go/attend/vision"
)

// ErrOptions means an Options field, or a name parsed into one, is
// invalid.
var ErrOptions = errors.New("overlay: invalid options")

// Format is the file format of a figure.
type Format string

// The formats.
const (
	// PNG is one picture: the input image and a panel per word, in rows.
	PNG Format = "png"
	// GIF is an animation: the input image, then one frame per word.
	GIF Format = "gif"
	// JPEG is the picture of PNG, compressed with losses (quality 90):
	// smaller files for photos, blurrier labels.
	JPEG Format = "jpg"
)

// Formats lists the formats, for flag help.
var Formats = []Format{PNG, GIF, JPEG}

// ParseFormat returns the format called name: "png", "gif", or "jpg"
// (also "jpeg").
func ParseFormat(name string) (Format, error) {
	switch f := Format(strings.ToLower(name)); f {
	case PNG, GIF, JPEG:
		return f, nil
	case "jpeg":
		return JPEG, nil
	}
	return "", fmt.Errorf("%w: unknown format %q, want png, gif or jpg", ErrOptions, name)
}

// FormatOf returns the format a file name's extension asks for (in any
// case): .png, .gif, .jpg or .jpeg; PNG for a name without an extension.
// Another extension is an error wrapping ErrOptions.
func FormatOf(path string) (Format, error) {
	ext := filepath.Ext(path)
	if ext == "" {
		return PNG, nil
	}
	f, err := ParseFormat(ext[1:])
	if err != nil {
		return "", fmt.Errorf("%w: %s: the figure's format follows its extension: .png, .gif or .jpg", ErrOptions, path)
	}
	return f, nil
}

// ParseColormap returns the colormap called name: viridis, inferno,
// turbo or mask.
func ParseColormap(name string) (*vision.Colormap, error) {
	if c, ok := vision.ColormapByName(strings.ToLower(name)); ok {
		return c, nil
	}
	return nil, fmt.Errorf("%w: unknown colormap %q, want viridis, inferno, turbo or mask", ErrOptions, name)
}

// ParseSmoothing returns the smoothing called name: bilinear, gaussian or
// nearest.
func ParseSmoothing(name string) (vision.Smoothing, error) {
	for _, s := range []vision.Smoothing{vision.SmoothBilinear, vision.SmoothGaussian, vision.SmoothNearest} {
		if strings.EqualFold(name, s.String()) {
			return s, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown smoothing %q, want bilinear, gaussian or nearest", ErrOptions, name)
}

// ParseScale returns the heat scale called name: panel-max, shared or
// absolute.
func ParseScale(name string) (vision.HeatScale, error) {
	for _, s := range []vision.HeatScale{vision.ScalePanelMax, vision.ScaleShared, vision.ScaleAbsolute} {
		if strings.EqualFold(name, s.String()) {
			return s, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown scale %q, want panel-max, shared or absolute", ErrOptions, name)
}

// Defaults and limits of Options, for command-line flags (which cannot
// reach package vision): those of vision's figures.
const (
	DefaultColumns = vision.DefaultColumns   // tiles per row
	DefaultSize    = vision.DefaultPanelSize // long side of a tile
	MaxSize        = vision.MaxOverlaySize   // the largest Size
	DefaultDelay   = vision.DefaultGIFDelay  // hundredths of a second a GIF frame shows
)

// Options configures a figure. A nil *Options, or the zero value, means
// defaults; each field documents its own.
type Options struct {
	// Format is PNG (the default) or GIF.
	Format Format

	// Words are the 0-based indexes of the words that get a panel, in
	// the order drawn (SelectWords parses a selection into them). Nil
	// means every word; an empty non-nil slice draws the input alone.
	Words []int

	// Select chooses the words by a selection such as "3" or "dog,1"
	// instead, parsed for each caption by SelectWords (so one Options
	// serves a batch of captions). Empty means Words decides; setting
	// both is an error.
	Select string

	// Colormap colors the attention: vision.Inferno when nil, or
	// vision.Viridis, vision.Turbo, or vision.Mask (the unattended
	// photo darkened instead of colored).
	Colormap *vision.Colormap

	// Alpha is the strength of the overlay in (0, 1]; zero means
	// vision's default (0.7 for colormaps, 0.8 for Mask).
	Alpha float64

	// Smoothing is how the grid is upsampled to pixels: bilinear (the
	// default), Gaussian (Xu et al.'s look) or nearest (the grid itself).
	Smoothing vision.Smoothing

	// Scale says which weight gets the top color: each panel's own
	// maximum (the default), the largest over the panels, or 1.
	Scale vision.HeatScale

	// Columns is the number of tiles per row of a PNG, the input image
	// included. Zero means 5 (vision.DefaultColumns).
	Columns int

	// Size is the long side of each tile in pixels, up to
	// vision.MaxOverlaySize; the short side follows the image's aspect
	// ratio. Zero means 224 (vision.DefaultPanelSize).
	Size int

	// Beta writes each word's gate β under its panel, when the caption
	// has one.
	Beta bool

	// Peak outlines each word's most attended cell with a dashed line.
	Peak bool

	// NoLegend leaves out the colorbar (PNG only; GIF frames have none).
	NoLegend bool

	// Title is written above the panels. Empty means the caption's text
	// in quotes; NoTitle leaves it out.
	Title   string
	NoTitle bool

	// Delay is how long each GIF frame shows, in hundredths of a second.
	// Zero means 100 (vision.DefaultGIFDelay).
	Delay int
}

// panelsOptions returns the vision options that draw c with o.
func (o *Options) panelsOptions(c *Caption) vision.PanelsOptions {
	title := o.Title
	if title == "" {
		title = `"` + c.Text() + `"`
		if len(c.Words) == 0 {
			title = "(empty caption)"
		}
	}
	if o.NoTitle {
		title = ""
	}
	return vision.PanelsOptions{
		OverlayOptions: vision.OverlayOptions{
			Colormap:     o.Colormap,
			Alpha:        o.Alpha,
			Smoothing:    o.Smoothing,
			Scale:        o.Scale,
			Fit:          c.Fit,
			CropFraction: c.CropFraction,
			Size:         o.Size,
		},
		Columns:  o.Columns,
		ShowBeta: o.Beta,
		// A sentinel is what adaptive attention is about: always shown.
		ShowSentinel: c.Sentinel != nil,
		NoLegend:     o.NoLegend,
		Title:        title,
	}
}

// format returns o.Format with its default, or an error for an unknown
// one.
func (o *Options) format() (Format, error) {
	if o.Format == "" {
		return PNG, nil
	}
	return ParseFormat(string(o.Format))
}

// words returns the indexes of the words of c to draw (nil: all).
func (o *Options) words(c *Caption) ([]int, error) {
	if o.Select == "" {
		return o.Words, nil
	}
	if o.Words != nil {
		return nil, fmt.Errorf("%w: both Words and Select are set", ErrOptions)
	}
	return SelectWords(c, o.Select)
}
