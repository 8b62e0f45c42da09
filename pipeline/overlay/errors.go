package overlay

import (
	"strings"

	"github.com/attend-go/attend/internal/input"
)

// namedError puts the name of the input into an error of this package:
// "overlay: photo.jpg: reason", without repeating the "overlay: " prefix.
type namedError struct {
	name string
	err  error
}

func named(path string, err error) error {
	return &namedError{name: input.DisplayName(path), err: err}
}

func (e *namedError) Error() string {
	return "overlay: " + e.name + ": " + strings.TrimPrefix(e.err.Error(), "overlay: ")
}

func (e *namedError) Unwrap() error { return e.err }
