package vision

import (
	"errors"
	"image"
	"strings"
)

// Sentinel errors that callers test with errors.Is. Every error returned by
// Decode and DecodeFile for bad input wraps exactly one of the first four;
// errors from the underlying reader (a failed disk read) are wrapped as they
// are and wrap none of them.
var (
	// ErrFormat means the bytes are not an image in a format this package
	// reads. Errors wrapping it also match image.ErrFormat.
	ErrFormat = errors.New("vision: unknown image format")
	// ErrTooLarge means the image header declares more pixels than the
	// configured limit (DecodeOptions.MaxPixels); no pixels were decoded.
	ErrTooLarge = errors.New("vision: image too large")
	// ErrDimensions means the image has no pixels (a 0×0 or otherwise
	// empty header) or impossible dimensions.
	ErrDimensions = errors.New("vision: invalid image dimensions")
	// ErrCorrupt means the header was recognized but the data is malformed
	// or truncated. The decoder's own error (for example
	// io.ErrUnexpectedEOF) is wrapped as well.
	ErrCorrupt = errors.New("vision: corrupt image data")
	// ErrOptions means an options struct or argument holds an invalid
	// value.
	ErrOptions = errors.New("vision: invalid options")
)

// formatError is an ErrFormat with the reason the input was not recognized.
// It also matches image.ErrFormat so that code written against the standard
// library keeps working.
type formatError struct{ reason string }

func (e *formatError) Error() string   { return ErrFormat.Error() + ": " + e.reason }
func (e *formatError) Unwrap() []error { return []error{ErrFormat, image.ErrFormat} }

// namedError puts the name of the input (a file path) into an error from
// this package without repeating the "vision: " prefix.
type namedError struct {
	name string
	err  error
}

func (e *namedError) Error() string {
	return "vision: " + e.name + ": " + strings.TrimPrefix(e.err.Error(), "vision: ")
}

func (e *namedError) Unwrap() error { return e.err }
