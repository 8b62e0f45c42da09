package input

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
)

// ErrNotFile marks an input that is no file to read: a directory or a
// device. Its message says what it is, since a device such as /dev/zero
// reads as zero bytes to a decoder that measures it and would otherwise
// be reported as an empty file.
var ErrNotFile = errors.New("not a file to read")

// checkMode returns an error wrapping ErrNotFile for a path whose mode is
// a directory or a device, naming what it is; nil for a regular file, a
// named pipe or a socket (read like standard input).
func checkMode(path string, mode fs.FileMode) error {
	var what string
	switch {
	case mode.IsDir():
		what = "a directory"
	case mode&fs.ModeDevice != 0:
		what = "a device"
		if mode&fs.ModeCharDevice != 0 {
			what = "a character device"
		}
		switch filepath.Clean(path) {
		case "/dev/zero":
			what = "a device of endless zero bytes"
		case "/dev/urandom", "/dev/random":
			what = "a device of endless random bytes"
		case "/dev/null":
			what = "a device that holds nothing"
		}
	default:
		return nil
	}
	return fmt.Errorf("%s is %s: %w", path, what, ErrNotFile)
}

// isStream reports whether mode is that of a named pipe or socket:
// readable once, with no size, as standard input.
func isStream(mode fs.FileMode) bool {
	return mode&(fs.ModeNamedPipe|fs.ModeSocket) != 0
}
