package captiondata

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error this package returns names the file (and
// where useful the line, image or record) and wraps one of these, or the
// error of the file system.
var (
	// ErrFormat means a dataset file is not what its kind requires: a
	// malformed line or JSON value, an image without captions, an empty
	// caption, a duplicate.
	ErrFormat = errors.New("captiondata: malformed dataset")
	// ErrSplit means a split was asked for that the dataset does not
	// have; the message lists the ones it has.
	ErrSplit = errors.New("captiondata: unknown split")
	// ErrMissingImage means image files the dataset names do not exist.
	ErrMissingImage = errors.New("captiondata: missing image")
	// ErrCache means a file is not a feature cache, or a damaged one.
	ErrCache = errors.New("captiondata: bad feature cache")
	// ErrMismatch means a feature cache was made from other images, or
	// with another encoder, grid or preprocessing, than asked for.
	ErrMismatch = errors.New("captiondata: feature cache mismatch")
	// ErrIncomplete means a record of a feature cache has not been
	// extracted yet (the extraction was interrupted or the image failed).
	ErrIncomplete = errors.New("captiondata: features not extracted")
)

// dataError is an error whose message is complete in itself and which
// wraps a sentinel and possibly the error that caused it.
type dataError struct {
	msg  string
	errs []error
}

func (e *dataError) Error() string   { return e.msg }
func (e *dataError) Unwrap() []error { return e.errs }

// errorf returns an error about the file or directory source, its message
// "captiondata: source: …", wrapping sentinel.
func errorf(sentinel error, source, format string, args ...any) error {
	return &dataError{msg: "captiondata: " + source + ": " + fmt.Sprintf(format, args...), errs: []error{sentinel}}
}

// causef is errorf also wrapping cause, whose message the format should
// include.
func causef(sentinel, cause error, source, format string, args ...any) error {
	return &dataError{msg: "captiondata: " + source + ": " + fmt.Sprintf(format, args...), errs: []error{sentinel, cause}}
}
