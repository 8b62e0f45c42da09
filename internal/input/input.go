// Package input opens the inputs the tools name on their command lines:
// a file, or "-" for standard input.
package input

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Stdin is the name that stands for standard input.
const Stdin = "-"

// Open opens path, or buffers stdin for "-" (decoders need to seek), and
// returns the function that closes it. A named pipe is buffered as stdin
// is; a directory or a device is an error wrapping ErrNotFile that says
// what it is.
func Open(path string, stdin io.Reader) (io.ReadSeeker, func(), error) {
	if path == Stdin {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, nil, fmt.Errorf("reading standard input: %w", err)
		}
		return bytes.NewReader(data), func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err // *PathError already names the file
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := checkMode(path, fi.Mode()); err != nil {
		f.Close()
		return nil, nil, err
	}
	if isStream(fi.Mode()) {
		// A named pipe ("asr <(sox …)"): buffered as standard input is.
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s: %w", path, err)
		}
		return bytes.NewReader(data), func() {}, nil
	}
	return f, func() { f.Close() }, nil
}

// Check looks at path without reading it: an error when it is missing,
// unreadable, a directory or a device (ErrNotFile); nil for standard
// input, a pipe or a regular file (of any size). size is the regular
// file's size, -1 otherwise.
func Check(path string) (size int64, err error) {
	if path == Stdin {
		return -1, nil
	}
	fi, err := os.Stat(path)
	if err != nil {
		return -1, err
	}
	if err := checkMode(path, fi.Mode()); err != nil {
		return -1, err
	}
	if !fi.Mode().IsRegular() {
		return -1, nil
	}
	return fi.Size(), nil
}

// DisplayName is how error messages name an input.
func DisplayName(path string) string {
	if path == Stdin {
		return "standard input"
	}
	return path
}
