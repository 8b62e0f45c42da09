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
// returns the function that closes it.
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
	return f, func() { f.Close() }, nil
}

// DisplayName is how error messages name an input.
func DisplayName(path string) string {
	if path == Stdin {
		return "standard input"
	}
	return path
}
