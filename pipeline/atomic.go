package pipeline

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
)

// WriteFileAtomic writes a file through write so that readers never see a
// partial file: it writes a temporary file beside path, syncs and closes
// it, and renames it over path (mode 0644). On any error path is left
// untouched.
func WriteFileAtomic(path string, write func(io.Writer) error) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = tmp.Chmod(0o644); err != nil { // CreateTemp makes 0600 files
		return err
	}
	if err = write(tmp); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// rootTmpSeq numbers the temporary files of WriteFileInRoot within the
// process.
var rootTmpSeq atomic.Uint64

// WriteFileInRoot writes rel through root as WriteFileAtomic writes a
// path: render fills a hidden temporary file beside rel (buffered), which
// is synced and renamed into place, so a reader or a kill leaves the old
// file or the whole new one, never a part. root confines every path
// component, symbolic links included, to its directory; missing parent
// directories are made. The file gets mode 0666 less the umask.
func WriteFileInRoot(root *os.Root, rel string, render func(io.Writer) error) (err error) {
	dir, base := filepath.Split(rel)
	if dir != "" {
		if err := root.MkdirAll(dir, 0o777); err != nil {
			return err
		}
	}
	tmp := filepath.Join(dir, "."+base+".tmp-"+strconv.Itoa(os.Getpid())+"-"+strconv.FormatUint(rootTmpSeq.Add(1), 10))
	f, err := root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			root.Remove(tmp)
		}
	}()
	bw := bufio.NewWriter(f)
	if err := render(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return root.Rename(tmp, rel)
}
