package overlay

import (
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
)

// ErrOverwriteInput means an output path is (or leads to) an input file.
var ErrOverwriteInput = errors.New("overlay: output would replace an input")

// Write draws c over img and writes the figure to the file path, in
// Options.Format, atomically: a reader sees the old file or the whole new
// one, and on error path is left as it was. The file's mode is 0666 less
// the umask. It replaces an existing
// file; CheckOutput first makes sure that file is not an input.
func Write(path string, img image.Image, c *Caption, opts *Options) error {
	data, err := encode(img, c, opts)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("overlay: %w", err)
	}
	defer root.Close()
	if err := writeFile(root, filepath.Base(path), data); err != nil {
		return fmt.Errorf("overlay: writing %s: %w", path, err)
	}
	return nil
}

// CheckOutput fails with ErrOverwriteInput, naming both, when writing the
// file output would replace the file input: the same path once cleaned
// and made absolute, or the same file reached another way (a symbolic or
// hard link). Standard input ("-") is never a file to replace.
func CheckOutput(output, input string) error {
	if input == "-" {
		return nil
	}
	if samePath(output, input) {
		return named(input, fmt.Errorf("%w: its figure %s would be written over it", ErrOverwriteInput, output))
	}
	out, err := os.Stat(output)
	if err != nil {
		return nil // nothing there yet (or unreadable: the write will say)
	}
	if in, err := os.Stat(input); err == nil && os.SameFile(in, out) {
		return named(input, fmt.Errorf("%w: its figure %s is the image itself", ErrOverwriteInput, output))
	}
	return nil
}

// samePath reports whether two paths name the same place, lexically.
func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 != nil || err2 != nil {
		return filepath.Clean(a) == filepath.Clean(b)
	}
	return aa == bb
}
