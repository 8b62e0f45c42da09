// Package atomicfile writes files so that a reader, a crash or a kill
// sees the old file or the whole new one, never a part: the bytes go to a
// hidden temporary file in the target's directory, which is synced to
// disk, closed and renamed over the target, and then the directory is
// synced so that the rename itself survives a crash. On any error before
// the rename the temporary file is removed and the target is untouched.
//
// WriteFile is the whole sequence for a function that writes the
// contents; Create and Commit split it for callers that need the file
// itself (to lock it, or to go on using it after the rename). WriteIn is
// WriteFile within an os.Root, which confines every path component,
// symbolic links included, to its directory.
//
// Errors are not prefixed with a package name: callers add their own.
// Writing fails with "writing PATH: …", a failed directory sync after the
// rename with "PATH written, but syncing its directory failed: …";
// errors from creating or renaming are the *os.PathError or
// *os.LinkError of the call, naming the target rather than the
// temporary file.
package atomicfile

import (
	"bufio"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// Options change how a file is written; a nil *Options means the defaults.
type Options struct {
	// Perm is the mode of the new file, set exactly, whatever the umask.
	// Zero means 0666 less the umask, as with os.Create.
	Perm os.FileMode
	// NoReplace keeps a file that already exists at the target: Commit
	// links the new file there instead of renaming it, and fails with an
	// error wrapping fs.ErrExist if the target exists, leaving it as it
	// is. Where the file system has no hard links, it renames, which
	// replaces.
	NoReplace bool
	// Temp names the temporary file, in the target's directory; one
	// left there by a killed writer is truncated and reused, so a caller
	// can also remove it on start-up. Empty means a hidden name with a
	// random part, created afresh: no clash with another writer, and a
	// leftover is recognizably a temporary.
	Temp string
}

// dir is what the writer needs of a directory tree: the operating
// system's (osDir, paths as given) or an os.Root's.
type dir interface {
	OpenFile(name string, flag int, perm os.FileMode) (*os.File, error)
	Open(name string) (*os.File, error)
	Rename(oldname, newname string) error
	Link(oldname, newname string) error
	Remove(name string) error
}

type osDir struct{}

func (osDir) OpenFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
func (osDir) Open(name string) (*os.File, error)    { return os.Open(name) }
func (osDir) Rename(oldname, newname string) error  { return os.Rename(oldname, newname) }
func (osDir) Link(oldname, newname string) error    { return os.Link(oldname, newname) }
func (osDir) Remove(name string) error              { return os.Remove(name) }
func (osDir) Stat(name string) (fs.FileInfo, error) { return os.Stat(name) }
func (osDir) MkdirAll(name string, perm os.FileMode) error {
	return os.MkdirAll(name, perm)
}

// File is a file being written atomically: an open temporary file beside
// the target. Write to it, then Commit (or Replace); Abort gives up.
type File struct {
	*os.File
	dir       dir
	name, tmp string
	noReplace bool
	committed bool
}

// Create starts writing the file at path: it creates the temporary file
// and returns it open for writing.
func Create(path string, o *Options) (*File, error) {
	return create(osDir{}, path, o)
}

func create(d dir, name string, o *Options) (*File, error) {
	if o == nil {
		o = &Options{}
	}
	dirName, base := filepath.Split(name)
	tmp, flag := filepath.Join(dirName, "."+base+"."+rand.Text()[:10]+".tmp"), os.O_EXCL
	if o.Temp != "" {
		tmp, flag = filepath.Join(dirName, o.Temp), os.O_TRUNC
	}
	perm := o.Perm
	if perm == 0 {
		perm = 0o666
	}
	f, err := d.OpenFile(tmp, os.O_RDWR|os.O_CREATE|flag, perm)
	if err != nil {
		// Name the file the caller asked for, not the hidden temporary
		// one it has never heard of.
		var pe *os.PathError
		if errors.As(err, &pe) {
			return nil, &os.PathError{Op: "create", Path: name, Err: pe.Err}
		}
		return nil, err
	}
	if o.Perm != 0 {
		if err := f.Chmod(o.Perm); err != nil {
			f.Close()
			d.Remove(tmp)
			return nil, err
		}
	}
	return &File{File: f, dir: d, name: name, tmp: tmp, noReplace: o.NoReplace}, nil
}

// Commit syncs and closes the file and puts it at the target (see
// Options.NoReplace), then syncs the directory. After a failure before
// the rename the temporary file is gone and the target untouched.
func (f *File) Commit() error {
	if err := f.Sync(); err != nil {
		f.Abort()
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	if err := f.File.Close(); err != nil {
		f.Abort()
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	return f.place()
}

// Replace is Commit for a caller that goes on using the file: it syncs
// it, renames it over the target and syncs the directory, leaving it
// open. The caller closes it.
func (f *File) Replace() error {
	if err := f.Sync(); err != nil {
		f.Abort()
		return fmt.Errorf("writing %s: %w", f.name, err)
	}
	return f.place()
}

// place links or renames the synced temporary file to the target.
func (f *File) place() error {
	var err error
	if f.noReplace {
		err = f.dir.Link(f.tmp, f.name)
		if err == nil || errors.Is(err, fs.ErrExist) {
			f.dir.Remove(f.tmp)
		} else {
			err = f.dir.Rename(f.tmp, f.name) // a file system without hard links
		}
	} else {
		err = f.dir.Rename(f.tmp, f.name)
	}
	if err != nil {
		f.Abort()
		return err
	}
	f.committed = true
	if err := syncDir(f.dir, filepath.Dir(f.name)); err != nil {
		return fmt.Errorf("%s written, but syncing its directory failed: %w", f.name, err)
	}
	return nil
}

// Abort closes the file and removes it if it was not committed. It may be
// called after Commit, and more than once.
func (f *File) Abort() {
	f.File.Close() // may be closed already
	if !f.committed {
		f.dir.Remove(f.tmp)
	}
}

// WriteFile writes the file at path through write, atomically. What write
// writes is buffered.
func WriteFile(path string, write func(io.Writer) error, o *Options) error {
	return writeFile(osDir{}, path, write, o)
}

// WriteIn is WriteFile for the file name within root. It makes missing
// parent directories of name (mode 0777 less the umask), and syncs the
// directory above each one it makes, so that a crash cannot lose the
// directories of a file written.
func WriteIn(root *os.Root, name string, write func(io.Writer) error, o *Options) error {
	if dir := filepath.Dir(name); dir != "." {
		if err := mkdirAllSynced(root, dir); err != nil {
			return err
		}
	}
	return writeFile(root, name, write, o)
}

// treeDir is a dir that can also make directories: an os.Root.
type treeDir interface {
	dir
	Stat(name string) (fs.FileInfo, error)
	MkdirAll(name string, perm os.FileMode) error
}

// mkdirAllSynced is root.MkdirAll(dir) that syncs the parent of each
// directory it creates, from the deepest up.
func mkdirAllSynced(root treeDir, dir string) error {
	var missing []string // dir and the ancestors that do not exist, deepest first
	for d := dir; d != "." && d != string(filepath.Separator); d = filepath.Dir(d) {
		if _, err := root.Stat(d); err == nil {
			break
		}
		missing = append(missing, d)
	}
	if len(missing) == 0 {
		return nil
	}
	if err := root.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	for _, d := range missing {
		if err := syncDir(root, filepath.Dir(d)); err != nil {
			return fmt.Errorf("%s made, but syncing its parent failed: %w", d, err)
		}
	}
	return nil
}

// MkdirAll is os.MkdirAll(dir, 0777 less the umask) that syncs the
// directory above each one it makes, so that they survive a crash.
func MkdirAll(dir string) error { return mkdirAllSynced(osDir{}, filepath.Clean(dir)) }

// SyncDir flushes to disk the entries of the directory dir (a file
// created or renamed there), as Commit does for the files it writes; for
// files written in place, such as a new append-only log.
func SyncDir(dir string) error { return syncDir(osDir{}, dir) }

func writeFile(d dir, name string, write func(io.Writer) error, o *Options) error {
	f, err := create(d, name, o)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		f.Abort()
		return fmt.Errorf("writing %s: %w", name, err)
	}
	return f.Commit()
}

// syncDir flushes the directory entry changes of name to disk. Windows
// cannot sync a directory handle and does not need to.
func syncDir(d dir, name string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	dh, err := d.Open(name)
	if err != nil {
		return err
	}
	err = dh.Sync()
	if cerr := dh.Close(); err == nil {
		err = cerr
	}
	return err
}
