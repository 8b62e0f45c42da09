package safetensors

import (
	"crypto/rand"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// WriteFile writes f to the file at path as Write does, atomically: the
// bytes go to a new temporary file in the same directory, which is synced
// to disk, closed and renamed over path, and then the directory is synced
// so that the rename itself survives a crash. Readers of path see the old
// file or the new one, never a mix. On any error the temporary file is
// removed and an existing file at path is left untouched. The file is
// created with mode 0666 before the umask, as by os.Create.
func WriteFile(path string, f *File, dtype DType) (err error) {
	p, err := planWrite(f, dtype)
	if err != nil {
		return err
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	// A hidden name with a random part: no clash with another writer, and
	// a leftover after a crash is recognizably a temporary.
	tmpName := filepath.Join(dir, "."+base+"."+rand.Text()[:10]+".tmp")
	tmp, err := os.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return fmt.Errorf("models: %w", err)
	}
	renamed := false
	defer func() {
		if !renamed {
			tmp.Close() // may already be closed; the write failed anyway
			os.Remove(tmpName)
		}
	}()

	if err := p.writeTo(tmp); err != nil {
		return fmt.Errorf("models: writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("models: writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("models: writing %s: %w", path, err)
	}
	if err := os.Rename(tmpName, path); err != nil {
		return fmt.Errorf("models: %w", err)
	}
	renamed = true
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("models: %s written, but syncing its directory failed: %w", path, err)
	}
	return nil
}

// syncDir flushes the directory entry changes of dir to disk. Windows
// cannot sync a directory handle and does not need to.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
