package vision

import (
	"image"
	"image/color"
	"image/draw"
)

// Flatten returns img as an opaque RGB image (alpha 255 everywhere) of the
// same size, starting at (0, 0). Gray, 16-bit, CMYK, YCbCr and paletted
// pixels are converted to 8-bit sRGB; translucent pixels are composited
// over background with the Porter–Duff "over" operator in premultiplied
// space:
//
//	out = src + (1 − αsrc)·background
//
// A nil background means white. The background's own alpha is ignored: its
// premultiplied color is used as if opaque, so color.Transparent means
// black. img must not be nil.
func Flatten(img image.Image, background color.Color) *image.RGBA {
	b := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	if isOpaque(img) {
		draw.Draw(dst, dst.Rect, img, b.Min, draw.Src)
		return dst
	}
	fill(dst, background)
	draw.Draw(dst, dst.Rect, img, b.Min, draw.Over)
	return dst
}

// isOpaque reports whether img is known to have no translucent pixel, in
// which case compositing can be skipped. For RGBA-like types the check
// scans the alpha channel, which is far cheaper than compositing.
func isOpaque(img image.Image) bool {
	o, ok := img.(interface{ Opaque() bool })
	return ok && o.Opaque()
}

// opaqueColor converts a background color to opaque RGBA; nil means white.
func opaqueColor(c color.Color) color.RGBA {
	if c == nil {
		return color.RGBA{0xff, 0xff, 0xff, 0xff}
	}
	r, g, b, _ := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xff}
}

// fill sets every pixel of dst to the opaque form of c.
func fill(dst *image.RGBA, c color.Color) {
	bg := opaqueColor(c)
	px := [4]byte{bg.R, bg.G, bg.B, bg.A}
	b := dst.Rect
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := dst.Pix[dst.PixOffset(b.Min.X, y):dst.PixOffset(b.Max.X, y)]
		for i := 0; i < len(row); i += 4 {
			copy(row[i:i+4], px[:])
		}
	}
}
