package safetensors

import (
	"errors"
	"fmt"
)

// Sentinel errors that callers test with errors.Is. Every error about a
// model file, from reading it or from checking it against a model, wraps
// exactly one of them; I/O errors are wrapped as they come.
var (
	// ErrCorrupt means the bytes are not a valid safetensors file, or not a
	// valid attend model file: a required attend.* metadata entry is
	// missing or malformed.
	ErrCorrupt = errors.New("models: corrupt model file")
	// ErrUnsupported means the file is valid but uses something this build
	// cannot read or write: a dtype it does not convert, or a newer format
	// version.
	ErrUnsupported = errors.New("models: unsupported")
	// ErrKind means the file holds a different kind of model than asked
	// for (File.CheckKind).
	ErrKind = errors.New("models: wrong model kind")
	// ErrMismatch means the tensors or the config of a file do not match
	// what the model expects: a tensor is missing, unexpected or of the
	// wrong shape, or the config has unknown fields.
	ErrMismatch = errors.New("models: file does not match the model")
)

// fileError is an error about a model file: its message names the file
// and the problem, and it wraps the sentinel it falls under.
type fileError struct {
	msg string
	err error
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() error { return e.err }

// fileErrorf returns an error about the file named source ("" if unnamed)
// that wraps sentinel.
func fileErrorf(source string, sentinel error, format string, args ...any) error {
	return &fileError{msg: filePrefix(source) + fmt.Sprintf(format, args...), err: sentinel}
}

// filePrefix returns the start of an error message about the file named
// source.
func filePrefix(source string) string {
	if source == "" {
		return "models: "
	}
	return "models: " + source + ": "
}
