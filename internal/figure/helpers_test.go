package figure

import (
	"image"
	"image/color"
)

// uniformImage returns a w×h image of one color.
func uniformImage(w, h int, c color.RGBA) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	FillRect(m, m.Rect, c)
	return m
}
