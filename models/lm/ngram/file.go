package ngram

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/attend-go/attend/internal/atomicfile"
)

// Load reads the ARPA model at path, plain or gzip-compressed (recognized
// by its magic bytes, not its name). Errors name the file and, for a
// malformed file, the line (a *SyntaxError wrapping ErrFormat).
func Load(path string, opts *LoadOptions) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ngram: %w", err)
	}
	defer f.Close()
	m, err := Read(f, opts)
	if err != nil {
		if se, ok := err.(*SyntaxError); ok {
			se.File = path
			return nil, se
		}
		return nil, fmt.Errorf("ngram: %s: %w", path, err)
	}
	return m, nil
}

// Save writes the model to path in the ARPA format, gzip-compressed when
// the name ends in ".gz". The write is atomic: the bytes go to a hidden
// temporary file beside path, which is synced, closed and renamed over
// path, and the directory is synced; on any error path is left as it was.
func (m *Model) Save(path string) error {
	return writeFileAtomic(path, func(w io.Writer) error {
		if !strings.HasSuffix(path, ".gz") {
			return m.WriteARPA(w)
		}
		zw := gzip.NewWriter(w)
		if err := m.WriteARPA(zw); err != nil {
			return err
		}
		return zw.Close()
	})
}

// writeFileAtomic writes path through write atomically (see Save). The
// file gets mode 0666 less the umask, as with os.Create.
func writeFileAtomic(path string, write func(io.Writer) error) error {
	if err := atomicfile.WriteFile(path, write, nil); err != nil {
		return fmt.Errorf("ngram: %w", err)
	}
	return nil
}
