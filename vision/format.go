package vision

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"unicode/utf8"

	"golang.org/x/image/bmp"
	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"
)

// format is one image format this package decodes. The table is private on
// purpose: Decode accepts exactly these decoders, whatever else another
// package registered with image.RegisterFormat, because the pixel limit and
// the fuzz tests were checked against these.
type format struct {
	name   string // as image.Decode names it: "jpeg", "png", ...
	magic  string // '?' matches any byte
	decode func(io.Reader) (image.Image, error)
	config func(io.Reader) (image.Config, error)
}

var formats = []format{
	{"jpeg", "\xff\xd8", jpeg.Decode, jpeg.DecodeConfig},
	{"png", "\x89PNG\r\n\x1a\n", png.Decode, png.DecodeConfig},
	{"gif", "GIF8?a", gif.Decode, gif.DecodeConfig},
	{"bmp", "BM????\x00\x00\x00\x00", bmp.Decode, bmp.DecodeConfig},
	{"tiff", "II*\x00", tiff.Decode, tiff.DecodeConfig},
	{"tiff", "MM\x00*", tiff.Decode, tiff.DecodeConfig},
	{"webp", "RIFF????WEBPVP8", webp.Decode, webp.DecodeConfig},
}

// sniffLen is how many leading bytes sniff looks at.
const sniffLen = 16

// sniff returns the format whose magic prefixes head, or an ErrFormat that
// says what head looks like instead.
func sniff(head []byte) (*format, error) {
	for i := range formats {
		if matchMagic(formats[i].magic, head) {
			return &formats[i], nil
		}
	}
	return nil, &formatError{reason: unknownReason(head)}
}

func matchMagic(magic string, b []byte) bool {
	if len(b) < len(magic) {
		return false
	}
	for i := 0; i < len(magic); i++ {
		if magic[i] != '?' && magic[i] != b[i] {
			return false
		}
	}
	return true
}

// unknownReason names what an unrecognized header most likely is, so that
// the error tells a user holding a HEIC photo or an HTML error page what
// went wrong.
func unknownReason(head []byte) string {
	const supported = " (supported: JPEG, PNG, GIF, BMP, TIFF, WebP)"
	has := func(off int, s string) bool {
		return len(head) >= off+len(s) && string(head[off:off+len(s)]) == s
	}
	switch {
	case len(head) == 0:
		return "empty input"
	case has(4, "ftyp") && len(head) >= 12:
		switch brand := string(head[8:12]); brand {
		case "avif", "avis":
			return "AVIF is not supported" + supported
		case "heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1":
			return "HEIF/HEIC is not supported" + supported
		default:
			return fmt.Sprintf("ISO media file (brand %q), not an image this package reads", brand) + supported
		}
	case has(0, "\xff\x0a"), has(4, "JXL "):
		return "JPEG XL is not supported" + supported
	case has(0, "II+\x00"), has(0, "MM\x00+"):
		return "BigTIFF is not supported" + supported
	case has(0, "RIFF") && has(8, "WEBP"):
		return "WebP file without a VP8/VP8L/VP8X chunk"
	case has(0, "GIF8"):
		return "GIF with an unknown version (want GIF87a or GIF89a)"
	case has(0, "%PDF"):
		return "PDF document, not an image"
	case has(0, "8BPS"):
		return "Photoshop PSD is not supported" + supported
	case has(0, "\x00\x00\x01\x00"):
		return "ICO is not supported" + supported
	case has(0, "PK\x03\x04"):
		return "ZIP archive, not an image"
	}
	if text := bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n"); len(text) > 0 && text[0] == '<' {
		return "text markup (HTML, XML or SVG), not a raster image" + supported
	}
	if isText(head) {
		return fmt.Sprintf("text %q, not an image", head)
	}
	return fmt.Sprintf("unrecognized header % x", head) + supported
}

// isText reports whether b is printable UTF-8 (a truncated rune at the end
// is allowed, since b is a prefix).
func isText(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			return !utf8.FullRune(b)
		}
		if r < ' ' && r != '\t' && r != '\n' && r != '\r' || r == 0x7f {
			return false
		}
		b = b[n:]
	}
	return true
}
