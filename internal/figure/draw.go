package figure

import (
	"image"
	"image/color"

	"golang.org/x/image/draw"
)

// Colors of the figure chrome.
var (
	Paper      = color.RGBA{255, 255, 255, 255} // background
	Ink        = color.RGBA{25, 25, 25, 255}    // words, axes
	Muted      = color.RGBA{95, 95, 95, 255}    // secondary text
	FrameColor = color.RGBA{60, 60, 60, 255}    // panel borders
	Warn       = color.RGBA{180, 30, 30, 255}   // notes the reader must not miss
)

// FillRect paints r (clipped to dst) with c.
func FillRect(dst *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(dst, r, image.NewUniform(c), image.Point{}, draw.Src)
}

// StrokeRect draws the outline of r, width pixels wide, inside r.
func StrokeRect(dst *image.RGBA, r image.Rectangle, width int, c color.RGBA) {
	FillRect(dst, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+width), c)
	FillRect(dst, image.Rect(r.Min.X, r.Max.Y-width, r.Max.X, r.Max.Y), c)
	FillRect(dst, image.Rect(r.Min.X, r.Min.Y, r.Min.X+width, r.Max.Y), c)
	FillRect(dst, image.Rect(r.Max.X-width, r.Min.Y, r.Max.X, r.Max.Y), c)
}

// DashedRect draws the outline of r, width pixels wide, inside r, as dashes
// of the given length alternating colors a and b (both visible on any
// background when one is light and one dark).
func DashedRect(dst *image.RGBA, r image.Rectangle, width, dash int, a, b color.RGBA) {
	pick := func(i int) color.RGBA {
		if (i/dash)%2 == 0 {
			return a
		}
		return b
	}
	for x := r.Min.X; x < r.Max.X; x++ {
		c := pick(x - r.Min.X)
		FillRect(dst, image.Rect(x, r.Min.Y, x+1, r.Min.Y+width), c)
		FillRect(dst, image.Rect(x, r.Max.Y-width, x+1, r.Max.Y), c)
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		c := pick(y - r.Min.Y)
		FillRect(dst, image.Rect(r.Min.X, y, r.Min.X+width, y+1), c)
		FillRect(dst, image.Rect(r.Max.X-width, y, r.Max.X, y+1), c)
	}
}

// DashedVLine draws a vertical dashed line at column x from y0 to y1.
func DashedVLine(dst *image.RGBA, x, y0, y1, dash int, c color.RGBA) {
	for y := y0; y < y1; y++ {
		if ((y-y0)/dash)%2 == 0 {
			if (image.Point{x, y}).In(dst.Rect) {
				dst.SetRGBA(x, y, c)
			}
		}
	}
}

// Colorbar paints r with the colormap running from 0 at the left to 1 at
// the right (vertical: from 0 at the bottom to 1 at the top), framed.
func Colorbar(dst *image.RGBA, r image.Rectangle, cm *Colormap, vertical bool) {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			var v float32
			if vertical {
				v = float32(r.Max.Y-1-y) / float32(max(1, r.Dy()-1))
			} else {
				v = float32(x-r.Min.X) / float32(max(1, r.Dx()-1))
			}
			if (image.Point{x, y}).In(dst.Rect) {
				dst.SetRGBA(x, y, cm.At(v))
			}
		}
	}
	StrokeRect(dst, r.Inset(-1), 1, FrameColor)
}
