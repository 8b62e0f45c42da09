package vision

import (
	"image"
	"image/color"
	"image/draw"
)

// orientation is the EXIF/TIFF Orientation value: how the stored pixels
// must be transformed to show the image upright. Values are those of the
// TIFF 6.0 spec, tag 274:
//
//	1 normal               5 transpose (mirror about the main diagonal)
//	2 mirror horizontally  6 rotate 90° clockwise
//	3 rotate 180°          7 transverse (mirror about the anti-diagonal)
//	4 mirror vertically    8 rotate 90° counter-clockwise
//
// Values 5–8 swap width and height.
type orientation uint8

const orientNormal orientation = 1

// placement says where stored pixel (x, y) of a w×h image lands in the
// upright image:
//
//	dx = x0 + xx·x + xy·y    with x0 = wx·(w-1) + hx·(h-1)
//	dy = y0 + yx·x + yy·y    with y0 = wy·(w-1) + hy·(h-1)
type placement struct {
	xx, xy, yx, yy int
	wx, hx, wy, hy int
}

var placements = [9]placement{
	1: {xx: 1, yy: 1},
	2: {xx: -1, yy: 1, wx: 1},
	3: {xx: -1, yy: -1, wx: 1, hy: 1},
	4: {xx: 1, yy: -1, hy: 1},
	5: {xy: 1, yx: 1},
	6: {xy: -1, yx: 1, hx: 1},
	7: {xy: -1, yx: -1, hx: 1, wy: 1},
	8: {xy: 1, yx: -1, wy: 1},
}

func (o orientation) swapsAxes() bool { return o >= 5 && o <= 8 }

// apply returns img transformed upright. The result starts at (0, 0).
// Gray, CMYK and RGBA images keep their type; YCbCr (whose chroma
// subsampling would not survive a rotation) and anything else become RGBA.
func (o orientation) apply(img image.Image) image.Image {
	if o <= orientNormal || o > 8 {
		return img
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	r := image.Rect(0, 0, w, h)
	if o.swapsAxes() {
		r = image.Rect(0, 0, h, w)
	}
	switch m := img.(type) {
	case *image.Gray:
		dst := image.NewGray(r)
		o.permute(dst.Pix, dst.Stride, m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, w, h, 1)
		return dst
	case *image.CMYK:
		dst := image.NewCMYK(r)
		o.permute(dst.Pix, dst.Stride, m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, w, h, 4)
		return dst
	case *image.RGBA:
		dst := image.NewRGBA(r)
		o.permute(dst.Pix, dst.Stride, m.Pix[m.PixOffset(b.Min.X, b.Min.Y):], m.Stride, w, h, 4)
		return dst
	case *image.YCbCr:
		dst := image.NewRGBA(r)
		o.permuteYCbCr(dst, m)
		return dst
	default:
		tmp := image.NewRGBA(image.Rect(0, 0, w, h))
		draw.Draw(tmp, tmp.Rect, img, b.Min, draw.Src)
		return o.apply(tmp)
	}
}

// offsets returns the byte offset in dst of stored pixel (0, 0) and
// how far it moves per step in x and in y, for pixels of bpp bytes.
func (o orientation) offsets(w, h, stride, bpp int) (start, stepX, stepY int) {
	p := placements[o]
	x0 := p.wx*(w-1) + p.hx*(h-1)
	y0 := p.wy*(w-1) + p.hy*(h-1)
	return y0*stride + x0*bpp, p.yx*stride + p.xx*bpp, p.yy*stride + p.xy*bpp
}

// permute copies a w×h block of bpp-byte pixels from src to dst, placing
// each pixel as the orientation says.
func (o orientation) permute(dst []byte, dstStride int, src []byte, srcStride, w, h, bpp int) {
	start, stepX, stepY := o.offsets(w, h, dstStride, bpp)
	for y := 0; y < h; y++ {
		row := src[y*srcStride : y*srcStride+w*bpp]
		d := start + y*stepY
		for x := 0; x < w; x++ {
			copy(dst[d:d+bpp], row[x*bpp:x*bpp+bpp])
			d += stepX
		}
	}
}

// permuteYCbCr converts to RGB and places pixels in one pass, so that no
// full-size intermediate RGBA image is needed.
func (o orientation) permuteYCbCr(dst *image.RGBA, src *image.YCbCr) {
	b := src.Rect
	w, h := b.Dx(), b.Dy()
	start, stepX, stepY := o.offsets(w, h, dst.Stride, 4)
	for y := 0; y < h; y++ {
		d := start + y*stepY
		for x := 0; x < w; x++ {
			yi := src.YOffset(b.Min.X+x, b.Min.Y+y)
			ci := src.COffset(b.Min.X+x, b.Min.Y+y)
			r, g, bl := color.YCbCrToRGB(src.Y[yi], src.Cb[ci], src.Cr[ci])
			px := dst.Pix[d : d+4 : d+4]
			px[0], px[1], px[2], px[3] = r, g, bl, 0xff
			d += stepX
		}
	}
}
