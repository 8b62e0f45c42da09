package figure

//go:generate go run colormap_gen.go

import (
	"image/color"
	"math"
)

// A Colormap turns a value in [0, 1] into a color. The package provides
// Viridis, Inferno, Turbo and Mask; a nil *Colormap in an options struct
// means the default named there.
//
// Viridis and Inferno are perceptually uniform: equal steps in value look
// like equal steps in color, lightness rises monotonically, and they stay
// readable in grayscale and for the common forms of color blindness.
// Viridis (blue–green–yellow) is the safe choice for matrices such as
// attention alignments; Inferno (black–purple–orange–pale yellow) has the
// wider lightness range and suits spectrograms. Turbo is a rainbow map
// designed to fix jet's banding: vivid and easy to read over photos, but
// its lightness is not monotonic, so it exaggerates some differences.
// Mask is not a color scale but a brightness mask in the spirit of Xu et
// al.'s figures: over an image, the attended region keeps its brightness
// and the rest fades to black; on its own it is a black-to-white ramp.
//
// The tables are the published 256-entry ones, copied by colormap_gen.go
// from matplotlib (viridis and inferno: van der Walt, Smith and Firing
// 2015, CC0; turbo: Mikhailov 2019, Copyright Google LLC, Apache 2.0),
// and rounded to 8 bits.
type Colormap struct {
	name string
	lut  [256]color.RGBA
	mask bool
}

// The colormaps of this package.
var (
	Viridis = newColormap("viridis", &viridisTable)
	Inferno = newColormap("inferno", &infernoTable)
	Turbo   = newColormap("turbo", &turboTable)
	Mask    = newMask()
)

func newColormap(name string, table *[256][3]float32) *Colormap {
	c := &Colormap{name: name}
	for i, rgb := range table {
		c.lut[i] = color.RGBA{unit8(rgb[0]), unit8(rgb[1]), unit8(rgb[2]), 255}
	}
	return c
}

func newMask() *Colormap {
	c := &Colormap{name: "mask", mask: true}
	for i := range c.lut {
		v := uint8(i)
		c.lut[i] = color.RGBA{v, v, v, 255}
	}
	return c
}

// unit8 rounds a value in [0, 1] to a byte.
func unit8(v float32) uint8 { return uint8(math.Round(float64(v) * 255)) }

// Name returns the colormap's name: "viridis", "inferno", "turbo" or
// "mask".
func (c *Colormap) Name() string { return c.name }

// String returns the name.
func (c *Colormap) String() string { return c.name }

// IsMask reports whether the colormap is the brightness Mask, which Overlay
// applies by scaling the image instead of blending a color over it.
func (c *Colormap) IsMask() bool { return c.mask }

// At returns the color for v: the table entry nearest to v·255. Values
// below 0 and NaN give the first entry, values above 1 the last.
func (c *Colormap) At(v float32) color.RGBA { return c.lut[LUTIndex(v)] }

// LUTIndex maps [0, 1] to 0..255, clamping and sending NaN to 0.
func LUTIndex(v float32) uint8 {
	if !(v > 0) { // also NaN
		return 0
	}
	if v >= 1 {
		return 255
	}
	return uint8(v*255 + 0.5)
}

// ColormapByName returns the colormap with the given name (as Name
// returns it), or false.
func ColormapByName(name string) (*Colormap, bool) {
	for _, c := range []*Colormap{Viridis, Inferno, Turbo, Mask} {
		if c.name == name {
			return c, true
		}
	}
	return nil, false
}

// Entry returns entry i of c's table: the color of the value i/255.
func (c *Colormap) Entry(i uint8) color.RGBA { return c.lut[i] }
