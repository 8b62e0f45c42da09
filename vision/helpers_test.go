package vision

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"testing"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
)

// Named colors used by fixtures.
var (
	red   = color.RGBA{255, 0, 0, 255}
	green = color.RGBA{0, 255, 0, 255}
	blue  = color.RGBA{0, 0, 255, 255}
	white = color.RGBA{255, 255, 255, 255}
	black = color.RGBA{0, 0, 0, 255}
	gray  = color.RGBA{128, 128, 128, 255}
)

// quadrants returns a w×h NRGBA image made of four flat quadrants:
// top-left, top-right, bottom-left, bottom-right.
func quadrants(w, h int, c [4]color.Color) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			q := 0
			if x >= w/2 {
				q++
			}
			if y >= h/2 {
				q += 2
			}
			m.Set(x, y, c[q])
		}
	}
	return m
}

// quadrantCenters returns a point well inside each quadrant of r, away from
// the edges where lossy codecs and resampling blur colors together.
func quadrantCenters(r image.Rectangle) [4]image.Point {
	w, h := r.Dx(), r.Dy()
	x0, x1 := r.Min.X+w/4, r.Min.X+3*w/4
	y0, y1 := r.Min.Y+h/4, r.Min.Y+3*h/4
	return [4]image.Point{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}}
}

// rgbAt returns the 8-bit color of an opaque RGBA pixel.
func rgbAt(m *image.RGBA, p image.Point) color.RGBA { return m.RGBAAt(p.X, p.Y) }

// near reports whether two colors differ by at most tol in every channel.
func near(a, b color.RGBA, tol int) bool {
	d := func(x, y uint8) bool { v := int(x) - int(y); return v <= tol && v >= -tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B) && d(a.A, b.A)
}

func encodePNG(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeJPEG(t testing.TB, m image.Image, quality int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: quality}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeGIF(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := gif.Encode(&b, m, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeBMP(t testing.TB, m image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := bmp.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func encodeTIFF(t testing.TB, m image.Image, opts *tiff.Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := tiff.Encode(&b, m, opts); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// withAPP1 returns a copy of a JPEG with an APP1 segment carrying payload
// inserted right after SOI, where cameras put EXIF.
func withAPP1(t testing.TB, jpg, payload []byte) []byte {
	t.Helper()
	if len(jpg) < 2 || jpg[0] != 0xff || jpg[1] != 0xd8 {
		t.Fatal("withAPP1: not a JPEG")
	}
	if len(payload)+2 > 0xffff {
		t.Fatal("withAPP1: payload too long for one segment")
	}
	out := []byte{0xff, 0xd8, 0xff, 0xe1}
	out = binary.BigEndian.AppendUint16(out, uint16(len(payload)+2))
	out = append(out, payload...)
	return append(out, jpg[2:]...)
}

// exifPayload builds an APP1 payload: "Exif\0\0", a TIFF header in the given
// byte order and an IFD0 holding Make (ASCII, stored out of line),
// Orientation and XResolution (RATIONAL), so the parser has to step over
// entries on both sides of the one it wants.
func exifPayload(bo binary.AppendByteOrder, orient uint16) []byte {
	var b []byte
	b = append(b, "Exif\x00\x00"...)
	tiffStart := len(b)
	if bo == binary.LittleEndian {
		b = append(b, "II"...)
	} else {
		b = append(b, "MM"...)
	}
	b = bo.AppendUint16(b, 42)
	b = bo.AppendUint32(b, 8) // IFD0 right after the header
	const entries = 3
	ifdEnd := 8 + 2 + 12*entries + 4
	b = bo.AppendUint16(b, entries)
	entry := func(tag, typ uint16, count uint32, value []byte) {
		b = bo.AppendUint16(b, tag)
		b = bo.AppendUint16(b, typ)
		b = bo.AppendUint32(b, count)
		b = append(b, value...)
	}
	u32 := func(v uint32) []byte { return bo.AppendUint32(nil, v) }
	maker := "attend\x00"
	entry(0x010f, 2, uint32(len(maker)), u32(uint32(ifdEnd)))
	entry(0x0112, 3, 1, append(bo.AppendUint16(nil, orient), 0, 0))
	entry(0x011a, 5, 1, u32(uint32(ifdEnd+len(maker))))
	b = bo.AppendUint32(b, 0) // no IFD1
	if len(b)-tiffStart != ifdEnd {
		panic("exifPayload: layout arithmetic is wrong")
	}
	b = append(b, maker...)
	b = bo.AppendUint32(b, 72)
	return bo.AppendUint32(b, 1)
}

// texture returns a deterministic w×h photo-like image: smooth gradients,
// a moiré pattern and pseudo-random grain, so that JPEG files made from it
// have realistic entropy (a flat image would decode unrealistically fast).
func texture(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(1, 2))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			fx, fy := float64(x)/float64(w), float64(y)/float64(h)
			moire := 40 * math.Sin(float64(x*x+y*y)/900)
			grain := rng.NormFloat64() * 12
			i := m.PixOffset(x, y)
			m.Pix[i+0] = clampByte(200*fx + moire + grain)
			m.Pix[i+1] = clampByte(180*fy - moire + grain)
			m.Pix[i+2] = clampByte(120 + 80*math.Sin(6*fx+4*fy) + grain)
			m.Pix[i+3] = 0xff
		}
	}
	return m
}

func clampByte(v float64) uint8 { return uint8(math.Round(math.Max(0, math.Min(255, v)))) }

// bmpV4 encodes m as a 32-bit BMP with a BITMAPV4HEADER and an alpha mask,
// the form whose alpha decoders honor (x/image/bmp writes 40-byte headers,
// whose fourth byte readers must ignore).
func bmpV4(m *image.NRGBA) []byte {
	w, h := m.Rect.Dx(), m.Rect.Dy()
	const headers = 14 + 108
	le := binary.LittleEndian
	b := []byte("BM")
	b = le.AppendUint32(b, uint32(headers+4*w*h))
	b = le.AppendUint32(b, 0)
	b = le.AppendUint32(b, headers)
	b = le.AppendUint32(b, 108)
	b = le.AppendUint32(b, uint32(w))
	b = le.AppendUint32(b, uint32(h)) // positive: bottom-up rows
	b = le.AppendUint16(b, 1)         // planes
	b = le.AppendUint16(b, 32)        // bits per pixel
	b = le.AppendUint32(b, 3)         // BI_BITFIELDS
	b = le.AppendUint32(b, uint32(4*w*h))
	b = append(b, make([]byte, 16)...) // resolution, colors used, important
	for _, mask := range []uint32{0xff0000, 0xff00, 0xff, 0xff000000} {
		b = le.AppendUint32(b, mask)
	}
	b = append(b, make([]byte, headers-len(b))...) // color space, endpoints, gamma
	for y := h - 1; y >= 0; y-- {
		for x := 0; x < w; x++ {
			c := m.NRGBAAt(x, y)
			b = append(b, c.B, c.G, c.R, c.A)
		}
	}
	return b
}
