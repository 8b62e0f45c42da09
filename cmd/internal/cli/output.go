package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/attend-go/attend/internal/atomicfile"
)

// WriteFile writes the file at path through write, atomically and
// durably (internal/atomicfile: a crash leaves the old file or the whole
// new one). A path that exists and is no regular file (/dev/stdout,
// /dev/null, a named pipe) is written in place.
func WriteFile(path string, write func(io.Writer) error) error {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return fmt.Errorf("%s is a directory", path)
		}
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		if err := write(f); err != nil {
			f.Close()
			return fmt.Errorf("writing %s: %w", path, err)
		}
		return f.Close()
	}
	return atomicfile.WriteFile(path, write, nil)
}

// CheckWritable reports, cheaply and before any long work, whether
// WriteFile(path) can succeed: path is a device or pipe that opens for
// writing, or its directory takes a new file. flag names the option in
// the error ("-captions").
func CheckWritable(path, flag string) error {
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return fmt.Errorf("%s %s: a directory", flag, path)
	case err == nil && !st.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return fmt.Errorf("%s %s: %w", flag, path, err)
		}
		return f.Close()
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".check-*")
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s %s: cannot write in %s: %w", flag, path, dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}
