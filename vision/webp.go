package vision

import "image"

// Lossy WebP (VP8) stores BT.601 YCbCr in the limited "video" range: Y in
// [16, 235], Cb and Cr in [16, 240] (RFC 6386 section 9.2; libwebp
// src/dsp/yuv.h). golang.org/x/image/webp returns those planes as an
// *image.YCbCr, whose color model is full-range JFIF, so drawn as is black
// comes out as 16, white as 235 and every color washed out (Go issue
// golang/go#40173). fixWebPRange converts such images to RGB with the
// limited-range equations:
//
//	R = 1.164·(Y−16) + 1.596·(Cr−128)
//	G = 1.164·(Y−16) − 0.392·(Cb−128) − 0.813·(Cr−128)
//	B = 1.164·(Y−16) + 2.017·(Cb−128)
//
// Chroma is upsampled by replication, like libwebp's "simple" upsampler
// (dwebp -nofancy). Lossless WebP (VP8L) is RGB already and untouched.
func fixWebPRange(img image.Image) image.Image {
	switch m := img.(type) {
	case *image.YCbCr:
		dst := image.NewRGBA(image.Rect(0, 0, m.Rect.Dx(), m.Rect.Dy()))
		limitedToRGB(dst.Pix, dst.Stride, m, nil, 0)
		return dst
	case *image.NYCbCrA:
		dst := image.NewNRGBA(image.Rect(0, 0, m.Rect.Dx(), m.Rect.Dy()))
		limitedToRGB(dst.Pix, dst.Stride, &m.YCbCr, m.A, m.AStride)
		return dst
	}
	return img
}

// Fixed-point coefficients of the equations above, scaled by 2^16.
const (
	vp8Y  = 76309  // 255/219
	vp8RV = 104597 // 1.596
	vp8GU = 25675  // 0.392
	vp8GV = 53279  // 0.813
	vp8BU = 132201 // 2.017
)

// limitedToRGB writes src as 4-byte pixels R, G, B, A into pix, taking
// alpha from a (with stride aStride) or 0xff when a is nil.
func limitedToRGB(pix []byte, stride int, src *image.YCbCr, a []byte, aStride int) {
	b := src.Rect
	for y := b.Min.Y; y < b.Max.Y; y++ {
		row := pix[(y-b.Min.Y)*stride:]
		for x := b.Min.X; x < b.Max.X; x++ {
			yy := (int(src.Y[src.YOffset(x, y)]) - 16) * vp8Y
			ci := src.COffset(x, y)
			cb, cr := int(src.Cb[ci])-128, int(src.Cr[ci])-128
			alpha := byte(0xff)
			if a != nil {
				alpha = a[(y-b.Min.Y)*aStride+(x-b.Min.X)]
			}
			i := 4 * (x - b.Min.X)
			px := row[i : i+4 : i+4]
			px[0] = clamp16(yy + vp8RV*cr)
			px[1] = clamp16(yy - vp8GU*cb - vp8GV*cr)
			px[2] = clamp16(yy + vp8BU*cb)
			px[3] = alpha
		}
	}
}

// clamp16 rounds a 16.16 fixed-point value to a byte, clamping to [0, 255].
func clamp16(v int) byte {
	v = (v + 1<<15) >> 16
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return byte(v)
}
