package batch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/attend-go/attend/internal/atomicfile"
)

// ErrExists is returned when an output exists and neither Resume nor
// Overwrite was asked for: finished work is never thrown away by default.
var ErrExists = errors.New("batch: output exists")

// ErrLocked is returned when another process is writing the same
// combined output.
var ErrLocked = errors.New("batch: output in use by another process")

// output is the combined output: records appended one whole line per
// write, synced to disk at intervals.
type output struct {
	name      string
	f         *os.File  // nil when writing to a stream
	w         io.Writer // f, or the stream
	dev       *os.File  // the stream, when it is a device or pipe opened by name
	codec     codec
	syncEvery time.Duration
	lastSync  time.Time
	dirty     bool
	resumed   *resumed // what opening it found
}

// resumed says what resuming an output found.
type resumed struct {
	done      map[string]bool // keys of the inputs with a successful record
	kept      int             // records kept
	retried   int             // failure records dropped, to be retried
	dups      int             // duplicate records dropped
	truncated int64           // bytes of an incomplete last record dropped
}

// openStream writes records to w (standard output).
func openStream(w io.Writer, c codec) (*output, error) {
	if h := c.header(); h != nil {
		if _, err := w.Write(h); err != nil {
			return nil, fmt.Errorf("batch: writing to standard output: %w", err)
		}
	}
	return &output{name: "standard output", w: w, codec: c}, nil
}

// openDevice opens an output that is no regular file for writing, as a
// stream (see openOutput).
func openDevice(path string, c codec) (*output, *resumed, error) {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("batch: opening the output: %w", err)
	}
	o := &output{name: path, w: f, dev: f, codec: c}
	if h := c.header(); h != nil {
		if _, err := f.Write(h); err != nil {
			f.Close()
			return nil, nil, writeError(path, err)
		}
	}
	return o, &resumed{done: map[string]bool{}}, nil
}

// openOutput opens the combined output file path for appending, resuming
// or replacing it as asked. On resume it drops an incomplete last record,
// and rewrites the file (atomically) without failure records, which are
// retried, and without duplicates.
//
// A path that is no regular file (/dev/null, /dev/stdout, a named pipe)
// is written as a stream: nothing to resume, replace, lock or sync. A
// file it creates has its directory synced, so that the new file's
// entry survives a crash as its records do.
func openOutput(path string, c codec, resume, overwrite bool, syncEvery time.Duration) (*output, *resumed, error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return nil, nil, fmt.Errorf("batch: the output %s is a directory", path)
		}
		return openDevice(path, c)
	}
	_, statErr := os.Lstat(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return nil, nil, fmt.Errorf("batch: opening the output: %w", err)
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		if err := atomicfile.SyncDir(filepath.Dir(path)); err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("batch: syncing the directory of the new output %s: %w", path, err)
		}
	}
	if err := lockFile(f); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%w: %s: %v", ErrLocked, path, err)
	}
	o := &output{name: path, f: f, w: f, codec: c, syncEvery: syncEvery, lastSync: time.Now()}
	res, err := o.prepare(resume, overwrite)
	if err != nil {
		o.f.Close()
		return nil, nil, err
	}
	return o, res, nil
}

func (o *output) prepare(resume, overwrite bool) (*resumed, error) {
	fi, err := o.f.Stat()
	if err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	res := &resumed{done: map[string]bool{}}
	size := fi.Size()
	switch {
	case size == 0 || o.onlyHeader(size):
		// Nothing done yet (a run that stopped before its first record).
	case overwrite:
		if err := o.f.Truncate(0); err != nil {
			return nil, fmt.Errorf("batch: emptying %s: %w", o.name, err)
		}
		size = 0
	case !resume:
		return nil, fmt.Errorf("%w: %s has %d bytes of results; resume it, or allow overwriting it", ErrExists, o.name, size)
	default:
		// A rewrite killed before its rename leaves its temporary file;
		// holding the lock, nobody else can be writing it.
		os.Remove(o.tmpName())
		if size, err = o.resume(res, size); err != nil {
			return nil, err
		}
	}
	if size == 0 || o.onlyHeader(size) {
		if err := o.f.Truncate(0); err != nil {
			return nil, fmt.Errorf("batch: emptying %s: %w", o.name, err)
		}
		if h := o.codec.header(); h != nil {
			if _, err := o.f.Write(h); err != nil {
				return nil, fmt.Errorf("batch: writing %s: %w", o.name, err)
			}
		}
	}
	if err := o.f.Sync(); err != nil {
		return nil, fmt.Errorf("batch: syncing %s: %w", o.name, err)
	}
	return res, nil
}

// onlyHeader reports whether the file of size bytes holds just the
// format's header.
func (o *output) onlyHeader(size int64) bool {
	h := o.codec.header()
	if h == nil || size != int64(len(h)) {
		return false
	}
	b := make([]byte, len(h))
	_, err := o.f.ReadAt(b, 0)
	return err == nil && bytes.Equal(b, h)
}

// resume reads the records already in the output and returns the size
// it is left with.
func (o *output) resume(res *resumed, size int64) (int64, error) {
	failed := map[string]bool{}
	end, tail, err := scan(io.NewSectionReader(o.f, 0, size), o.codec, o.name, func(_ []byte, r *Record) error {
		switch {
		case r.Failed():
			res.retried++
			failed[r.Path] = true
		case res.done[r.Path]:
			res.dups++
		default:
			res.done[r.Path] = true
			res.kept++
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	res.truncated = tail
	if res.retried > 0 || res.dups > 0 {
		return o.rewrite(end)
	}
	if tail > 0 {
		if err := o.f.Truncate(end); err != nil {
			return 0, fmt.Errorf("batch: dropping the incomplete last record of %s: %w", o.name, err)
		}
	}
	return end, nil
}

// rewrite replaces the output by a copy of its first end bytes without
// failure records and duplicates, written to a temporary file in the same
// directory, synced and renamed over it; a kill at any point leaves either
// the old file or the new one. The copy is locked before the rename, so
// the lock never lapses.
func (o *output) rewrite(end int64) (int64, error) {
	tmp, err := atomicfile.Create(o.name, &atomicfile.Options{Temp: filepath.Base(o.tmpName())})
	if err != nil {
		return 0, fmt.Errorf("batch: rewriting %s: %w", o.name, err)
	}
	fail := func(err error) (int64, error) {
		tmp.Abort()
		return 0, fmt.Errorf("batch: rewriting %s: %w", o.name, err)
	}
	if err := lockFile(tmp.File); err != nil {
		return fail(err)
	}
	// The header and every record kept, each line as it was.
	buf := append([]byte(nil), o.codec.header()...)
	written := map[string]bool{}
	_, _, err = scan(io.NewSectionReader(o.f, 0, end), o.codec, o.name, func(line []byte, r *Record) error {
		if r.Failed() || written[r.Path] {
			return nil
		}
		written[r.Path] = true
		buf = append(append(buf, line...), '\n')
		if len(buf) >= 1<<20 {
			if _, err := tmp.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
		return nil
	})
	if err != nil {
		return fail(err)
	}
	if _, err := tmp.Write(buf); err != nil {
		return fail(err)
	}
	fi, err := tmp.Stat()
	if err != nil {
		return fail(err)
	}
	// Replace syncs, renames and syncs the directory, and leaves the copy
	// open: it is the output from now on, appended to at its end.
	if err := tmp.Replace(); err != nil {
		tmp.Abort()
		return 0, fmt.Errorf("batch: rewriting %s: %w", o.name, err)
	}
	o.f.Close() // the old file, now unlinked; its lock goes with it
	o.f, o.w = tmp.File, tmp.File
	return fi.Size(), nil
}

// tmpName is the temporary file of a rewrite: hidden, next to the output.
func (o *output) tmpName() string {
	dir, base := filepath.Split(o.name)
	return filepath.Join(dir, "."+base+".resume-tmp")
}

// write appends one encoded record in a single write, and syncs when the
// last sync is older than syncEvery.
func (o *output) write(line []byte) error {
	if _, err := o.w.Write(line); err != nil {
		return writeError(o.name, err)
	}
	if o.f == nil {
		return nil
	}
	o.dirty = true
	if time.Since(o.lastSync) >= o.syncEvery {
		return o.sync()
	}
	return nil
}

func (o *output) sync() error {
	if o.f == nil || !o.dirty {
		return nil
	}
	if err := o.f.Sync(); err != nil {
		return fmt.Errorf("batch: syncing %s: %w", o.name, err)
	}
	o.dirty, o.lastSync = false, time.Now()
	return nil
}

// close syncs and closes the file.
func (o *output) close() error {
	if o.dev != nil {
		if err := o.dev.Close(); err != nil {
			return fmt.Errorf("batch: closing %s: %w", o.name, err)
		}
		return nil
	}
	if o.f == nil {
		return nil
	}
	err := o.sync()
	if cerr := o.f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("batch: closing %s: %w", o.name, cerr)
	}
	return err
}

// writeError is the error of a failed write to the output name.
func writeError(name string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err // "write NAME" again says nothing more
	}
	return fmt.Errorf("batch: writing %s: %w", name, err)
}
