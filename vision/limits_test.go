package vision

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"image"
	"runtime"
	"strings"
	"testing"
)

// Headers that claim huge sizes are built by encoding a tiny image and
// patching the dimensions in its header, so that everything else stays a
// valid file.

func patchPNG(t testing.TB, w, h uint32) []byte {
	b := encodePNG(t, image.NewGray(image.Rect(0, 0, 1, 1)))
	// 8-byte signature, then IHDR: length(4) "IHDR" width(4) height(4) ... crc(4).
	binary.BigEndian.PutUint32(b[16:], w)
	binary.BigEndian.PutUint32(b[20:], h)
	binary.BigEndian.PutUint32(b[29:], crc32.ChecksumIEEE(b[12:29]))
	return b
}

func patchJPEG(t testing.TB, w, h uint16) []byte {
	b := encodeJPEG(t, image.NewGray(image.Rect(0, 0, 8, 8)), 90)
	i := bytes.Index(b, []byte{0xff, 0xc0}) // SOF0: length(2) precision(1) height(2) width(2)
	if i < 0 {
		t.Fatal("patchJPEG: no SOF0 marker")
	}
	binary.BigEndian.PutUint16(b[i+5:], h)
	binary.BigEndian.PutUint16(b[i+7:], w)
	return b
}

func encodeGIFScreen(t testing.TB, w, h uint16) []byte {
	b := encodeGIF(t, image.NewGray(image.Rect(0, 0, 1, 1)))
	// "GIF89a", then the logical screen width and height, little-endian.
	binary.LittleEndian.PutUint16(b[6:], w)
	binary.LittleEndian.PutUint16(b[8:], h)
	return b
}

func patchBMP(t testing.TB, w, h int32) []byte {
	b := encodeBMP(t, image.NewRGBA(image.Rect(0, 0, 1, 1)))
	// BITMAPINFOHEADER starts at 14: size(4) width(4) height(4).
	binary.LittleEndian.PutUint32(b[18:], uint32(w))
	binary.LittleEndian.PutUint32(b[22:], uint32(h))
	return b
}

func patchTIFF(t testing.TB, w, h uint32) []byte {
	b := encodeTIFF(t, image.NewGray(image.Rect(0, 0, 1, 1)), nil)
	bo := binary.ByteOrder(binary.LittleEndian)
	if string(b[:2]) == "MM" {
		bo = binary.BigEndian
	}
	ifd := bo.Uint32(b[4:])
	n := int(bo.Uint16(b[ifd:]))
	found := 0
	for i := 0; i < n; i++ {
		e := b[int(ifd)+2+12*i:]
		tag, typ := bo.Uint16(e), bo.Uint16(e[2:])
		v := map[uint16]uint32{256: w, 257: h}
		if val, ok := v[tag]; ok {
			found++
			// Widen SHORT entries to LONG so that any size fits.
			if typ == 3 {
				bo.PutUint16(e[2:], 4)
			}
			bo.PutUint32(e[8:], val)
		}
	}
	if found != 2 {
		t.Fatalf("patchTIFF: found %d of the 2 size tags", found)
	}
	return b
}

// webpVP8X is a RIFF WebP holding only a VP8X chunk with the given canvas.
func webpVP8X(w, h uint32) []byte {
	b := []byte("RIFF\x00\x00\x00\x00WEBPVP8X\x0a\x00\x00\x00")
	b = append(b, 0, 0, 0, 0) // flags, reserved
	for _, v := range []uint32{w - 1, h - 1} {
		b = append(b, byte(v), byte(v>>8), byte(v>>16))
	}
	binary.LittleEndian.PutUint32(b[4:], uint32(len(b)-8))
	return b
}

// TestDecodePixelLimit feeds headers claiming billions of pixels (followed
// by no pixel data at all) and checks that they are refused from the header
// alone, with little memory.
func TestDecodePixelLimit(t *testing.T) {
	tests := []struct {
		name string
		data []byte
	}{
		{"png", patchPNG(t, 100000, 100000)},
		{"jpeg", patchJPEG(t, 65535, 65535)},
		{"gif", encodeGIFScreen(t, 65535, 65535)},
		{"bmp", patchBMP(t, 100000, 100000)},
		{"tiff", patchTIFF(t, 100000, 100000)},
		{"webp", webpVP8X(40000, 40000)},
		{"png-one-row", patchPNG(t, 1<<31-1, 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			img, _, err := Decode(bytes.NewReader(tc.data), nil)
			runtime.ReadMemStats(&after)
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("Decode = %v, %v; want ErrTooLarge", img, err)
			}
			if !strings.Contains(err.Error(), "over the limit of 50000000") {
				t.Errorf("error %q does not state the limit", err)
			}
			t.Logf("%d-byte file, %d bytes allocated", len(tc.data), after.TotalAlloc-before.TotalAlloc)
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 1<<20 {
				t.Errorf("refusing the header allocated %d bytes, want < 1 MiB", alloc)
			}
		})
	}
}
