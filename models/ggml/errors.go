package ggml

import (
	"errors"
	"fmt"
	"io"
)

// Sentinel errors that every error of Read wraps, for errors.Is.
var (
	// ErrFormat is a file that is not a well-formed ggml model file.
	ErrFormat = errors.New("ggml: malformed model file")
	// ErrTruncated is a file that ends before what its headers announce;
	// it also matches io.ErrUnexpectedEOF.
	ErrTruncated = fmt.Errorf("ggml: truncated model file: %w", io.ErrUnexpectedEOF)
	// ErrUnsupported is a well-formed file, or a recognized other format,
	// that this package does not read (a k-quant tensor, GGUF, a PyTorch
	// checkpoint).
	ErrUnsupported = errors.New("ggml: unsupported model file")
)

// FormatError says what is wrong with a file and where: Offset is the
// byte offset of the field at fault. It wraps ErrFormat, ErrTruncated or
// ErrUnsupported.
type FormatError struct {
	Offset int64
	Msg    string
	Err    error
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("ggml: offset %d: %s", e.Offset, e.Msg)
}

func (e *FormatError) Unwrap() error { return e.Err }

func formatErr(off int64, kind error, format string, args ...any) error {
	return &FormatError{Offset: off, Msg: fmt.Sprintf(format, args...), Err: kind}
}
