package vision

import (
	"bytes"
	"encoding/binary"
	"errors"
	"image"
	"image/color"
	"testing"

	"golang.org/x/image/tiff"
)

// fuzzSeeds returns small valid files of every format and pixel type the
// decoders produce, plus a few broken ones, as starting points.
func fuzzSeeds(t testing.TB) [][]byte {
	quads := [4]color.Color{red, green, transparentBlack, halfBlack}
	small := texture(24, 16)
	jpg := encodeJPEG(t, small, 80)
	seeds := [][]byte{
		encodePNG(t, quadrants(8, 8, quads)),
		encodePNG(t, gray16Quadrants(8, 8)),
		encodePNG(t, nrgba64Quadrants(4, 4)),
		encodePNG(t, paletted(8, 8, color.Palette{red, green, color.RGBA{}, black})),
		jpg,
		encodeJPEG(t, grayQuadrants(16, 16), 80),
		withAPP1(t, jpg, exifPayload(binary.BigEndian, 6)),
		withAPP1(t, jpg, exifPayload(binary.LittleEndian, 7)),
		encodeGIF(t, paletted(8, 8, color.Palette{red, green, color.RGBA{}, black})),
		encodeBMP(t, small),
		encodeBMP(t, grayQuadrants(8, 8)),
		bmpV4(quadrants(4, 4, quads)),
		encodeTIFF(t, quadrants(8, 8, quads), &tiff.Options{Compression: tiff.Deflate}),
		encodeTIFF(t, small, &tiff.Options{Compression: tiff.Deflate, Predictor: true}),
		encodeTIFF(t, gray16Quadrants(8, 8), nil),
		patchPNG(t, 100000, 100000),
		webpVP8X(40000, 40000),
		jpg[:len(jpg)/2],
		[]byte("not an image"),
	}
	for _, name := range []string{"webp_lossless.webp", "webp_lossy.webp", "webp_alpha.webp", "cmyk.jpg", "ycck.jpg"} {
		seeds = append(seeds, readFixture(t, name))
	}
	return seeds
}

// FuzzDecodeImage checks that Decode never panics or hangs, that every
// failure wraps one of the package's sentinels, that a success respects the
// pixel limit, and that whatever decodes also preprocesses to finite
// values. The limit is small so that the fuzzer spends its time on parsing,
// not on allocating pixels.
func FuzzDecodeImage(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	const limit = 1 << 16
	f.Fuzz(func(t *testing.T, data []byte) {
		img, format, err := Decode(bytes.NewReader(data), &DecodeOptions{MaxPixels: limit})
		if err != nil {
			if img != nil {
				t.Fatalf("Decode returned an image and error %v", err)
			}
			known := false
			for _, s := range []error{ErrFormat, ErrCorrupt, ErrTooLarge, ErrDimensions} {
				known = known || errors.Is(err, s)
			}
			if !known {
				t.Fatalf("error %q wraps no sentinel", err)
			}
			return
		}
		switch format {
		case "jpeg", "png", "gif", "bmp", "tiff", "webp":
		default:
			t.Fatalf("format %q", format)
		}
		b := img.Bounds()
		if b.Empty() || int64(b.Dx())*int64(b.Dy()) > limit {
			t.Fatalf("decoded bounds %v with limit %d", b, limit)
		}
		ten, err := ToTensor(img, 8, &PreprocessOptions{Fit: Squash, Norm: UnitNorm})
		if err != nil {
			t.Fatalf("ToTensor of a decoded %T %v: %v", img, b, err)
		}
		for i, v := range ten.Data {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("tensor value %d is %v, want in [0, 1]", i, v)
			}
		}
	})
}

// FuzzJPEGOrientation runs the EXIF parser on arbitrary bytes: it must
// never panic and always return a valid orientation.
func FuzzJPEGOrientation(f *testing.F) {
	jpg := encodeJPEG(f, image.NewGray(image.Rect(0, 0, 8, 8)), 50)
	for o := uint16(1); o <= 8; o++ {
		f.Add(withAPP1(f, jpg, exifPayload(binary.LittleEndian, o))[:200])
		f.Add(withAPP1(f, jpg, exifPayload(binary.BigEndian, o))[:200])
	}
	f.Add([]byte("\xff\xd8\xff\xe1\x00\x08Exif\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if o := jpegOrientation(data); o < 1 || o > 8 {
			t.Fatalf("orientation %d", o)
		}
	})
}
