package ngram

import (
	"compress/gzip"
	"crypto/rand"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
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
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmpName := filepath.Join(dir, "."+base+"."+rand.Text()[:10]+".tmp")
	tmp, err := os.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return fmt.Errorf("ngram: %w", err)
	}
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close() // may be closed already; the write failed anyway
			os.Remove(tmpName)
		}
	}()
	if err := write(tmp); err != nil {
		return fmt.Errorf("ngram: writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("ngram: writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("ngram: writing %s: %w", path, err)
	}
	if err := os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("ngram: %w", err)
	}
	renamed = true
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("ngram: %s written, but syncing its directory failed: %w", path, err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("ngram: %s written, but syncing its directory failed: %w", path, err)
	}
	return nil
}
