package vision

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
)

// DefaultMaxPixels is the pixel limit used when DecodeOptions.MaxPixels is
// zero: 50 megapixels, about 200 MB once decoded to RGBA.
const DefaultMaxPixels = 50_000_000

// DecodeOptions configures Decode and DecodeFile. A nil *DecodeOptions, or
// the zero value, means defaults.
type DecodeOptions struct {
	// MaxPixels is the largest width×height accepted. The header is
	// checked before any pixel is decoded, so an image claiming more
	// pixels costs neither time nor memory. Zero means DefaultMaxPixels;
	// negative is an error.
	MaxPixels int64

	// IgnoreOrientation keeps JPEG pixels in stored order instead of
	// applying the EXIF orientation tag. The default (false) returns the
	// image upright, as a photo viewer shows it.
	IgnoreOrientation bool
}

func (o *DecodeOptions) maxPixels() (int64, error) {
	if o == nil || o.MaxPixels == 0 {
		return DefaultMaxPixels, nil
	}
	if o.MaxPixels < 0 {
		return 0, fmt.Errorf("%w: DecodeOptions.MaxPixels is %d, want > 0 (or 0 for the default %d)",
			ErrOptions, o.MaxPixels, DefaultMaxPixels)
	}
	return o.MaxPixels, nil
}

// Decode reads one image in any supported format (JPEG, PNG, GIF, BMP,
// TIFF, WebP) and returns it with the format's name ("jpeg", "png", "gif",
// "bmp", "tiff", "webp").
//
// The header is parsed first and the image refused with ErrTooLarge or
// ErrDimensions before pixels are decoded. JPEG images are returned upright
// (EXIF orientation applied) unless opts.IgnoreOrientation is set. The
// returned image keeps the decoder's pixel type (*image.YCbCr, *image.Gray,
// *image.CMYK, *image.Paletted, *image.NRGBA64, ...); Flatten or a
// Preprocessor turn any of them into RGB.
//
// For an animated GIF only the first frame is returned, with that frame's
// bounds. Errors wrap ErrFormat, ErrTooLarge, ErrDimensions, ErrCorrupt or
// ErrOptions; a failure of r itself is wrapped unchanged. Once the header
// is recognized the format name is returned with the error too.
func Decode(r io.Reader, opts *DecodeOptions) (image.Image, string, error) {
	return decode(r, opts)
}

// DecodeFile opens and decodes the image at path, like Decode. Every error
// names the path.
func DecodeFile(path string, opts *DecodeOptions) (image.Image, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", fmt.Errorf("vision: %w", err) // *PathError names the path
	}
	defer f.Close() // read-only: Close cannot lose data
	img, name, err := decode(f, opts)
	if err != nil {
		return nil, name, &namedError{name: path, err: err}
	}
	return img, name, nil
}

// decode does the work of Decode. It reads the header through a tee so the
// same bytes can be replayed to the pixel decoder: r need not be seekable,
// and the JPEG APP1 (EXIF) segment, which precedes the frame header, is in
// the recorded bytes when orientation is needed.
func decode(r io.Reader, opts *DecodeOptions) (image.Image, string, error) {
	limit, err := opts.maxPixels()
	if err != nil {
		return nil, "", err
	}
	if r == nil {
		return nil, "", fmt.Errorf("%w: nil reader", ErrOptions)
	}
	src := &errReader{r: r}
	br := bufio.NewReader(src)
	magic, _ := br.Peek(sniffLen) // short or failed reads show up below
	if src.err != nil {
		return nil, "", fmt.Errorf("vision: read: %w", src.err)
	}
	f, err := sniff(magic)
	if err != nil {
		return nil, "", err
	}

	var head bytes.Buffer
	cfg, err := f.config(io.TeeReader(br, &head))
	if err != nil {
		return nil, f.name, src.or(corrupt(f.name, "header", err))
	}
	if err := checkSize(f.name, cfg.Width, cfg.Height, limit); err != nil {
		return nil, f.name, err
	}

	// When the header read consumed everything (TIFF reads the whole file),
	// decode from the recorded bytes alone: a *bytes.Reader is an
	// io.ReaderAt, which spares the TIFF decoder another copy.
	var body io.Reader = bytes.NewReader(head.Bytes())
	if _, err := br.Peek(1); err == nil {
		body = io.MultiReader(body, br)
	}
	img, err := f.decode(body)
	if err != nil {
		return nil, f.name, src.or(corrupt(f.name, "pixels", err))
	}
	if img == nil {
		return nil, f.name, fmt.Errorf("%w: %s decoder returned no image", ErrCorrupt, f.name)
	}
	b := img.Bounds()
	if err := checkSize(f.name, b.Dx(), b.Dy(), limit); err != nil {
		return nil, f.name, err
	}
	switch {
	case f.name == "jpeg" && !opts.ignoreOrientation():
		img = jpegOrientation(head.Bytes()).apply(img)
	case f.name == "webp":
		img = fixWebPRange(img)
	}
	return img, f.name, nil
}

func (o *DecodeOptions) ignoreOrientation() bool { return o != nil && o.IgnoreOrientation }

// checkSize refuses empty images and images over limit pixels. The product
// is never formed, so it cannot overflow.
func checkSize(format string, w, h int, limit int64) error {
	if w <= 0 || h <= 0 {
		return fmt.Errorf("%w: %s image is %dx%d, want at least 1x1", ErrDimensions, format, w, h)
	}
	if int64(h) > limit/int64(w) {
		return fmt.Errorf("%w: %s image is %dx%d = %d pixels, over the limit of %d pixels",
			ErrTooLarge, format, w, h, uint64(w)*uint64(h), limit)
	}
	return nil
}

// corrupt wraps a decoder error as ErrCorrupt, keeping the decoder's error
// reachable with errors.Is and errors.As.
func corrupt(format, stage string, err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF // the data ended where the decoder needed more
	}
	return fmt.Errorf("%w: %s %s: %w", ErrCorrupt, format, stage, err)
}

// errReader remembers the first error other than io.EOF that its reader
// returned, so that a failing disk is reported as such rather than as a
// corrupt image.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// or returns the reader's error, if any, instead of err.
func (e *errReader) or(err error) error {
	if e.err != nil {
		return fmt.Errorf("vision: read: %w", e.err)
	}
	return err
}
