package vision

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/tiff"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("%v (regenerate with testdata/make_fixtures.sh)", err)
	}
	return b
}

// paletted returns a w×h quadrant image with one palette entry per
// quadrant.
func paletted(w, h int, p color.Palette) *image.Paletted {
	src := quadrants(w, h, [4]color.Color{p[0], p[1], p[2], p[3]})
	m := image.NewPaletted(src.Rect, p)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Set(x, y, src.At(x, y))
		}
	}
	return m
}

func gray16Quadrants(w, h int) *image.Gray16 {
	src := quadrants(w, h, [4]color.Color{color.Gray16{0}, color.Gray16{0x5555}, color.Gray16{0xaaaa}, color.Gray16{0xffff}})
	m := image.NewGray16(src.Rect)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Set(x, y, src.At(x, y))
		}
	}
	return m
}

func grayQuadrants(w, h int) *image.Gray {
	m := image.NewGray(image.Rect(0, 0, w, h))
	src := quadrants(w, h, [4]color.Color{color.Gray{0}, color.Gray{85}, color.Gray{170}, color.Gray{255}})
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Set(x, y, src.At(x, y))
		}
	}
	return m
}

func nrgba64Quadrants(w, h int) *image.NRGBA64 {
	src := quadrants(w, h, [4]color.Color{
		color.NRGBA64{0xffff, 0, 0, 0xffff},
		color.NRGBA64{0, 0xffff, 0, 0x8000},
		color.NRGBA64{0, 0, 0xffff, 0},
		color.NRGBA64{0x1234, 0x5678, 0x9abc, 0xffff},
	})
	m := image.NewNRGBA64(src.Rect)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m.Set(x, y, src.At(x, y))
		}
	}
	return m
}

// Colors the alpha fixtures turn into over a white background.
var (
	halfGreenOverWhite = color.RGBA{127, 255, 127, 255}
	halfBlackOverWhite = color.RGBA{127, 127, 127, 255}
	transparentBlack   = color.NRGBA{0, 0, 0, 0}
	halfBlack          = color.NRGBA{0, 0, 0, 128}
	grayLevels         = [4]color.RGBA{{0, 0, 0, 255}, {85, 85, 85, 255}, {170, 170, 170, 255}, {255, 255, 255, 255}}
	// Go's 16-bit to 8-bit conversion keeps the high byte.
	nrgba64OverWhite = [4]color.RGBA{red, halfGreenOverWhite, white, {0x12, 0x56, 0x9a, 255}}
)

func TestDecodeFormats(t *testing.T) {
	alphaQuads := [4]color.Color{red, green, transparentBlack, halfBlack}
	alphaWant := [4]color.RGBA{red, green, white, halfBlackOverWhite}
	opaqueQuads := [4]color.Color{red, green, blue, gray}
	opaqueWant := [4]color.RGBA{red, green, blue, gray}
	palette := color.Palette{red, green, color.RGBA{}, black}
	paletteWant := [4]color.RGBA{red, green, white, black}
	cmykWant := [4]color.RGBA{red, green, blue, {127, 127, 127, 255}}

	tests := []struct {
		name   string
		data   []byte
		format string
		typ    string // dynamic type of the decoded image
		size   image.Point
		want   [4]color.RGBA // quadrant colors after Flatten over white
		tol    int
	}{
		{"png/nrgba-alpha", encodePNG(t, quadrants(16, 16, alphaQuads)), "png", "*image.NRGBA", image.Pt(16, 16), alphaWant, 0},
		{"png/rgb", encodePNG(t, quadrants(16, 16, opaqueQuads)), "png", "*image.RGBA", image.Pt(16, 16), opaqueWant, 0},
		{"png/gray", encodePNG(t, grayQuadrants(16, 16)), "png", "*image.Gray", image.Pt(16, 16), grayLevels, 0},
		{"png/gray16", encodePNG(t, gray16Quadrants(16, 16)), "png", "*image.Gray16", image.Pt(16, 16), grayLevels, 0},
		{"png/nrgba64-alpha", encodePNG(t, nrgba64Quadrants(16, 16)), "png", "*image.NRGBA64", image.Pt(16, 16), nrgba64OverWhite, 1},
		{"png/paletted-trns", encodePNG(t, paletted(16, 16, palette)), "png", "*image.Paletted", image.Pt(16, 16), paletteWant, 0},
		{"jpeg/ycbcr", encodeJPEG(t, quadrants(32, 32, opaqueQuads), 95), "jpeg", "*image.YCbCr", image.Pt(32, 32), opaqueWant, 12},
		{"jpeg/gray", encodeJPEG(t, grayQuadrants(32, 32), 95), "jpeg", "*image.Gray", image.Pt(32, 32), grayLevels, 3},
		{"jpeg/cmyk", readFixture(t, "cmyk.jpg"), "jpeg", "*image.CMYK", image.Pt(32, 32), cmykWant, 8},
		{"jpeg/ycck", readFixture(t, "ycck.jpg"), "jpeg", "*image.CMYK", image.Pt(32, 32), cmykWant, 8},
		{"gif/transparent", encodeGIF(t, paletted(16, 16, palette)), "gif", "*image.Paletted", image.Pt(16, 16), paletteWant, 0},
		{"bmp/rgb", encodeBMP(t, quadrants(16, 16, opaqueQuads)), "bmp", "*image.RGBA", image.Pt(16, 16), opaqueWant, 0},
		{"bmp/v4-alpha", bmpV4(quadrants(16, 16, alphaQuads)), "bmp", "*image.NRGBA", image.Pt(16, 16), alphaWant, 0},
		{"bmp/gray", encodeBMP(t, grayQuadrants(16, 16)), "bmp", "*image.Paletted", image.Pt(16, 16), grayLevels, 0},
		{"tiff/nrgba-deflate", encodeTIFF(t, quadrants(16, 16, alphaQuads), &tiff.Options{Compression: tiff.Deflate}), "tiff", "*image.NRGBA", image.Pt(16, 16), alphaWant, 0},
		{"tiff/gray16", encodeTIFF(t, gray16Quadrants(16, 16), nil), "tiff", "*image.Gray16", image.Pt(16, 16), grayLevels, 0},
		// A TIFF color map has no alpha: the transparent entry is black.
		{"tiff/paletted", encodeTIFF(t, paletted(16, 16, palette), nil), "tiff", "*image.Paletted", image.Pt(16, 16), [4]color.RGBA{red, green, black, black}, 0},
		{"webp/lossless-alpha", readFixture(t, "webp_lossless.webp"), "webp", "*image.NRGBA", image.Pt(16, 16), [4]color.RGBA{red, green, white, halfBlackOverWhite}, 1},
		// Lossy WebP is converted from limited-range YCbCr (see webp.go).
		{"webp/lossy", readFixture(t, "webp_lossy.webp"), "webp", "*image.RGBA", image.Pt(32, 32), opaqueWant, 2},
		{"webp/lossy-alpha", readFixture(t, "webp_alpha.webp"), "webp", "*image.NRGBA", image.Pt(32, 32), [4]color.RGBA{red, green, white, gray}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img, format, err := Decode(bytes.NewReader(tc.data), nil)
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if format != tc.format {
				t.Errorf("format %q, want %q", format, tc.format)
			}
			if typ := fmt.Sprintf("%T", img); typ != tc.typ {
				t.Errorf("decoded type %s, want %s", typ, tc.typ)
			}
			if got := img.Bounds().Size(); got != tc.size {
				t.Fatalf("size %v, want %v", got, tc.size)
			}
			rgb := Flatten(img, nil)
			for q, p := range quadrantCenters(rgb.Rect) {
				if got := rgbAt(rgb, p); !near(got, tc.want[q], tc.tol) {
					t.Errorf("quadrant %d at %v: %v, want %v ± %d", q, p, got, tc.want[q], tc.tol)
				}
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	jpg := encodeJPEG(t, texture(128, 96), 90)
	pngData := encodePNG(t, texture(128, 96))
	tests := []struct {
		name    string
		data    []byte
		want    error
		wantMsg string // substring of the message
	}{
		{"empty", nil, ErrFormat, "empty input"},
		{"text", []byte("hello, world\n"), ErrFormat, `text "hello, world\n"`},
		{"html", []byte("  <!DOCTYPE html><html>"), ErrFormat, "HTML"},
		{"svg", []byte("\xef\xbb\xbf<svg xmlns="), ErrFormat, "SVG"},
		{"pdf", []byte("%PDF-1.7\n"), ErrFormat, "PDF"},
		{"heic", []byte("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00"), ErrFormat, "HEIF/HEIC"},
		{"avif", []byte("\x00\x00\x00\x1cftypavif\x00\x00\x00\x00"), ErrFormat, "AVIF"},
		{"jxl", []byte("\xff\x0a\x00\x00"), ErrFormat, "JPEG XL"},
		{"bigtiff", []byte("II+\x00\x08\x00\x00\x00"), ErrFormat, "BigTIFF"},
		{"binary", []byte{0x00, 0x01, 0x02, 0x03, 0xfe}, ErrFormat, "unrecognized header 00 01 02 03 fe"},
		{"jpeg/soi-only", []byte{0xff, 0xd8}, ErrCorrupt, "jpeg header"},
		{"jpeg/truncated-header", jpg[:100], ErrCorrupt, "unexpected EOF"},
		{"jpeg/truncated-scan", jpg[:len(jpg)/2], ErrCorrupt, "jpeg pixels"},
		{"png/truncated", pngData[:len(pngData)-30], ErrCorrupt, "png pixels"},
		{"png/bad-crc", flipByte(pngData, 30), ErrCorrupt, "checksum"},
		{"gif/0x0", encodeGIFScreen(t, 0, 0), ErrDimensions, "gif image is 0x0"},
		{"bmp/0x0", patchBMP(t, 0, 0), ErrDimensions, "bmp image is 0x0"},
		{"png/0x0", patchPNG(t, 0, 0), ErrCorrupt, "non-positive dimension"},
		{"webp/riff-no-vp8", []byte("RIFF\x04\x00\x00\x00WEBPXXXX"), ErrFormat, "without a VP8"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img, _, err := Decode(bytes.NewReader(tc.data), nil)
			if err == nil {
				t.Fatalf("Decode succeeded with %T %v, want error %v", img, img.Bounds(), tc.want)
			}
			if !errors.Is(err, tc.want) {
				t.Errorf("error %q does not wrap %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.wantMsg) {
				t.Errorf("error %q does not mention %q", err, tc.wantMsg)
			}
			if !strings.HasPrefix(err.Error(), "vision: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
			if errors.Is(tc.want, ErrFormat) && !errors.Is(err, image.ErrFormat) {
				t.Errorf("error %q does not match image.ErrFormat", err)
			}
		})
	}
}

// TestDecodeCorruptKeepsCause checks that ErrCorrupt errors still wrap the
// decoder's own error, for callers that want the detail.
func TestDecodeCorruptKeepsCause(t *testing.T) {
	jpg := encodeJPEG(t, texture(128, 96), 90)
	_, _, err := Decode(bytes.NewReader(jpg[:100]), nil)
	if !errors.Is(err, ErrCorrupt) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("header cut short: error %v, want ErrCorrupt wrapping io.ErrUnexpectedEOF", err)
	}
	_, _, err = Decode(bytes.NewReader(jpg[:len(jpg)/2]), nil)
	var fe jpeg.FormatError
	if !errors.Is(err, ErrCorrupt) || !errors.As(err, &fe) {
		t.Errorf("scan cut short: error %v, want ErrCorrupt wrapping a jpeg.FormatError", err)
	}
}

func flipByte(b []byte, i int) []byte {
	c := bytes.Clone(b)
	c[i] ^= 0xff
	return c
}

// failingReader returns some bytes of data, then err.
type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestDecodeReadError(t *testing.T) {
	jpg := encodeJPEG(t, texture(128, 96), 90)
	diskErr := errors.New("disk on fire")
	for _, n := range []int{0, 2, 300, len(jpg) / 2} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			_, _, err := Decode(&failingReader{data: jpg[:n], err: diskErr}, nil)
			if !errors.Is(err, diskErr) {
				t.Fatalf("error %v, want the reader's error", err)
			}
			for _, s := range []error{ErrFormat, ErrCorrupt, ErrTooLarge, ErrDimensions} {
				if errors.Is(err, s) {
					t.Errorf("read error %q also wraps %q", err, s)
				}
			}
		})
	}
}

func TestDecodeNilReader(t *testing.T) {
	if _, _, err := Decode(nil, nil); !errors.Is(err, ErrOptions) {
		t.Fatalf("Decode(nil) error %v, want ErrOptions", err)
	}
}

func TestDecodeFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.png")
	bad := filepath.Join(dir, "bad image.jpg")
	if err := os.WriteFile(good, encodePNG(t, grayQuadrants(8, 4)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte{0xff, 0xd8, 0xff}, 0o644); err != nil {
		t.Fatal(err)
	}

	img, format, err := DecodeFile(good, nil)
	if err != nil || format != "png" || img.Bounds() != image.Rect(0, 0, 8, 4) {
		t.Fatalf("DecodeFile(good) = %v, %q, %v; want 8x4 png", img.Bounds(), format, err)
	}

	tests := []struct {
		name string
		path string
		want error
	}{
		{"missing", filepath.Join(dir, "missing.png"), os.ErrNotExist},
		{"corrupt", bad, ErrCorrupt},
		{"directory", dir, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := DecodeFile(tc.path, nil)
			if err == nil {
				t.Fatal("DecodeFile succeeded")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("error %q does not wrap %v", err, tc.want)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "vision: ") || strings.Count(msg, "vision: ") != 1 {
				t.Errorf("error %q: want exactly one package prefix", msg)
			}
			if !strings.Contains(msg, tc.path) {
				t.Errorf("error %q does not name the path %q", msg, tc.path)
			}
		})
	}
}

func TestDecodeOptions(t *testing.T) {
	data := encodePNG(t, grayQuadrants(10, 10))
	tests := []struct {
		name string
		opts *DecodeOptions
		want error
	}{
		{"nil", nil, nil},
		{"zero", &DecodeOptions{}, nil},
		{"limit-equal", &DecodeOptions{MaxPixels: 100}, nil},
		{"limit-below", &DecodeOptions{MaxPixels: 99}, ErrTooLarge},
		{"limit-negative", &DecodeOptions{MaxPixels: -1}, ErrOptions},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Decode(bytes.NewReader(data), tc.opts)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
		})
	}
}

// TestDecodeWebPMatchesLibwebp compares a lossy WebP photo, pixel by pixel,
// with libwebp's own decoding of it (see testdata/make_fixtures.sh).
// Without the limited-range conversion, pixels are off by up to ~20.
func TestDecodeWebPMatchesLibwebp(t *testing.T) {
	img, _, err := Decode(bytes.NewReader(readFixture(t, "webp_photo.webp")), nil)
	if err != nil {
		t.Fatal(err)
	}
	ref, _, err := Decode(bytes.NewReader(readFixture(t, "webp_photo.libwebp.png")), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, want := Flatten(img, nil), Flatten(ref, nil)
	if got.Rect != want.Rect {
		t.Fatalf("bounds %v, libwebp %v", got.Rect, want.Rect)
	}
	worst := 0
	for i := range got.Pix {
		worst = max(worst, abs(int(got.Pix[i])-int(want.Pix[i])))
	}
	if worst > 1 {
		t.Errorf("largest channel difference from libwebp is %d, want ≤ 1", worst)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
