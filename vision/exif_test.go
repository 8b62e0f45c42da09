package vision

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"testing"
)

// The test image is a 3×2 grid of 16-pixel blocks, named
//
//	A B C
//	D E F
//
// and each orientation must produce the layout written out below, derived
// by hand from the TIFF 6.0 definitions, not from the code under test.
var orientationLayouts = [9][]string{
	1: {"ABC", "DEF"},
	2: {"CBA", "FED"},     // mirror horizontally
	3: {"FED", "CBA"},     // rotate 180°
	4: {"DEF", "ABC"},     // mirror vertically
	5: {"AD", "BE", "CF"}, // transpose
	6: {"DA", "EB", "FC"}, // rotate 90° clockwise
	7: {"FC", "EB", "DA"}, // transverse
	8: {"CF", "BE", "AD"}, // rotate 90° counter-clockwise
}

const gridBlock = 16

var gridColors = map[byte]color.RGBA{
	'A': {230, 20, 20, 255},  // red
	'B': {20, 230, 20, 255},  // green
	'C': {20, 20, 230, 255},  // blue
	'D': {230, 230, 20, 255}, // yellow
	'E': {20, 230, 230, 255}, // cyan
	'F': {230, 20, 230, 255}, // magenta
}

// grid draws rows of block names as gridBlock-sized blocks into an RGBA or,
// if gray is set, a Gray image.
func grid(rows []string, gray bool) image.Image {
	r := image.Rect(0, 0, len(rows[0])*gridBlock, len(rows)*gridBlock)
	var m interface {
		image.Image
		Set(x, y int, c color.Color)
	}
	if gray {
		m = image.NewGray(r)
	} else {
		m = image.NewRGBA(r)
	}
	for y := 0; y < r.Dy(); y++ {
		for x := 0; x < r.Dx(); x++ {
			name := rows[y/gridBlock][x/gridBlock]
			if gray {
				m.Set(x, y, color.Gray{40 * (name - 'A')})
			} else {
				m.Set(x, y, gridColors[name])
			}
		}
	}
	return m
}

// checkLayout compares the center of every block of img with the layout.
func checkLayout(t *testing.T, img image.Image, rows []string, gray bool) {
	t.Helper()
	want := image.Rect(0, 0, len(rows[0])*gridBlock, len(rows)*gridBlock)
	if img.Bounds() != want {
		t.Fatalf("bounds %v, want %v", img.Bounds(), want)
	}
	rgb := Flatten(img, nil)
	for by, row := range rows {
		for bx := range row {
			p := image.Pt(bx*gridBlock+gridBlock/2, by*gridBlock+gridBlock/2)
			var wantC color.RGBA
			if gray {
				g := 40 * (row[bx] - 'A')
				wantC = color.RGBA{g, g, g, 255}
			} else {
				wantC = gridColors[row[bx]]
			}
			if got := rgbAt(rgb, p); !near(got, wantC, 24) {
				t.Errorf("block (%d,%d) = %v, want %c %v", bx, by, got, row[bx], wantC)
			}
		}
	}
}

func TestDecodeOrientation(t *testing.T) {
	orders := []struct {
		name string
		bo   binary.AppendByteOrder
	}{{"II", binary.LittleEndian}, {"MM", binary.BigEndian}}
	for _, gray := range []bool{false, true} {
		jpg := encodeJPEG(t, grid(orientationLayouts[1], gray), 95)
		for _, order := range orders {
			for o := 1; o <= 8; o++ {
				name := fmt.Sprintf("gray=%v/%s/%d", gray, order.name, o)
				t.Run(name, func(t *testing.T) {
					data := withAPP1(t, jpg, exifPayload(order.bo, uint16(o)))
					img, _, err := Decode(bytes.NewReader(data), nil)
					if err != nil {
						t.Fatal(err)
					}
					if _, isGray := img.(*image.Gray); gray != isGray {
						t.Errorf("decoded %T, want gray=%v", img, gray)
					}
					checkLayout(t, img, orientationLayouts[o], gray)
				})
			}
		}
	}
}

func TestDecodeOrientationCMYK(t *testing.T) {
	data := withAPP1(t, readFixture(t, "cmyk.jpg"), exifPayload(binary.BigEndian, 6))
	img, _, err := Decode(bytes.NewReader(data), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := img.(*image.CMYK); !ok {
		t.Errorf("decoded %T, want *image.CMYK", img)
	}
	// Quadrants red, green / blue, gray turned 90° clockwise.
	want := [4]color.RGBA{blue, red, {127, 127, 127, 255}, green}
	rgb := Flatten(img, nil)
	for q, p := range quadrantCenters(rgb.Rect) {
		if got := rgbAt(rgb, p); !near(got, want[q], 8) {
			t.Errorf("quadrant %d = %v, want %v", q, got, want[q])
		}
	}
}

func TestDecodeIgnoreOrientation(t *testing.T) {
	jpg := encodeJPEG(t, grid(orientationLayouts[1], false), 95)
	data := withAPP1(t, jpg, exifPayload(binary.LittleEndian, 6))
	img, _, err := Decode(bytes.NewReader(data), &DecodeOptions{IgnoreOrientation: true})
	if err != nil {
		t.Fatal(err)
	}
	checkLayout(t, img, orientationLayouts[1], false)
}

// TestOrientationSubimage checks apply on images whose bounds do not start
// at the origin.
func TestOrientationSubimage(t *testing.T) {
	big := grid([]string{"ABCA", "DEFD", "ABCA"}, false).(*image.RGBA)
	sub := big.SubImage(image.Rect(gridBlock, gridBlock, 4*gridBlock, 3*gridBlock)) // "EFD" / "BCA"
	checkLayout(t, orientation(6).apply(sub), []string{"BE", "CF", "AD"}, false)
	ycc := image.NewYCbCr(sub.Bounds(), image.YCbCrSubsampleRatio444)
	for y := sub.Bounds().Min.Y; y < sub.Bounds().Max.Y; y++ {
		for x := sub.Bounds().Min.X; x < sub.Bounds().Max.X; x++ {
			r, g, b, _ := sub.At(x, y).RGBA()
			yy, cb, cr := color.RGBToYCbCr(uint8(r>>8), uint8(g>>8), uint8(b>>8))
			ycc.Y[ycc.YOffset(x, y)], ycc.Cb[ycc.COffset(x, y)], ycc.Cr[ycc.COffset(x, y)] = yy, cb, cr
		}
	}
	checkLayout(t, orientation(8).apply(ycc), []string{"DA", "FC", "EB"}, false)
}

// app1 wraps a payload as an APP1 segment.
func app1(payload string) string {
	n := len(payload) + 2
	return "\xff\xe1" + string([]byte{byte(n >> 8), byte(n)}) + payload
}

// tiffIFD builds "Exif\0\0" and a little-endian TIFF structure whose IFD0
// holds one entry.
func tiffIFD(tag, typ uint16, count uint32, value uint16) string {
	b := []byte("Exif\x00\x00II*\x00\x08\x00\x00\x00\x01\x00")
	le := binary.LittleEndian
	b = le.AppendUint16(b, tag)
	b = le.AppendUint16(b, typ)
	b = le.AppendUint32(b, count)
	b = le.AppendUint16(b, value)
	b = append(b, 0, 0, 0, 0, 0, 0)
	return string(b)
}

func TestJPEGOrientation(t *testing.T) {
	const soi = "\xff\xd8"
	good := tiffIFD(0x0112, 3, 1, 6)
	tests := []struct {
		name string
		data string
		want orientation
	}{
		{"empty", "", 1},
		{"not-jpeg", "\x89PNG\r\n\x1a\n", 1},
		{"soi-only", soi, 1},
		{"plain", soi + app1(good), 6},
		{"both-orders", soi + app1(string(exifPayload(binary.BigEndian, 3))), 3},
		{"after-other-segments", soi + "\xff\xe0\x00\x04JF" + "\xff\xdb\x00\x03\x00" + app1(good), 6},
		{"fill-bytes", soi + "\xff\xff\xff" + app1(good)[1:], 6},
		{"rst-and-tem", soi + "\xff\xd0\xff\x01" + app1(good), 6},
		{"xmp-first", soi + app1("http://ns.adobe.com/xap/1.0/\x00<x/>") + app1(good), 6},
		{"only-first-exif", soi + app1(tiffIFD(0x0112, 3, 1, 3)) + app1(good), 3},
		{"after-sos", soi + "\xff\xda\x00\x02" + app1(good), 1},
		{"after-eoi", soi + "\xff\xd9" + app1(good), 1},
		{"no-marker", soi + "\x00" + app1(good), 1},
		{"segment-too-long", soi + "\xff\xe1\xff\xff" + good, 1},
		{"segment-length-0", soi + "\xff\xe1\x00\x00" + good, 1},
		{"segment-length-1", soi + "\xff\xe1\x00\x01" + good, 1},
		{"length-cut", soi + "\xff\xe1\x00", 1},
		{"exif-header-only", soi + app1("Exif\x00\x00"), 1},
		{"bad-byte-order", soi + app1("Exif\x00\x00XX*\x00\x08\x00\x00\x00"), 1},
		{"bad-magic", soi + app1("Exif\x00\x00II+\x00\x08\x00\x00\x00"), 1},
		{"ifd-offset-past-end", soi + app1("Exif\x00\x00II*\x00\xff\xff\x00\x00"), 1},
		{"ifd-offset-huge", soi + app1("Exif\x00\x00II*\x00\xff\xff\xff\xff"), 1},
		{"ifd-offset-into-header", soi + app1("Exif\x00\x00II*\x00\x00\x00\x00\x00\x01\x00"), 1},
		{"count-past-end", soi + app1("Exif\x00\x00II*\x00\x08\x00\x00\x00\xff\xff\x00"), 1},
		{"entry-cut", soi + app1(good[:len(good)-8]), 1},
		{"type-long", soi + app1(tiffIFD(0x0112, 4, 1, 6)), 1},
		{"count-2", soi + app1(tiffIFD(0x0112, 3, 2, 6)), 1},
		{"value-0", soi + app1(tiffIFD(0x0112, 3, 1, 0)), 1},
		{"value-9", soi + app1(tiffIFD(0x0112, 3, 1, 9)), 1},
		{"value-ffff", soi + app1(tiffIFD(0x0112, 3, 1, 0xffff)), 1},
		{"other-tag", soi + app1(tiffIFD(0x0110, 3, 1, 6)), 1},
		{"not-exif-app1", soi + app1("Exif\x00X"+good[6:]), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := jpegOrientation([]byte(tc.data)); got != tc.want {
				t.Errorf("orientation %d, want %d", got, tc.want)
			}
			// Every prefix must be safe to parse too.
			for n := 0; n < len(tc.data); n++ {
				if got := jpegOrientation([]byte(tc.data[:n])); got < 1 || got > 8 {
					t.Fatalf("prefix %d: orientation %d out of range", n, got)
				}
			}
		})
	}
}
