package batch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// CollectOptions configures Collect; the zero value means defaults.
type CollectOptions struct {
	// List names a file of input paths, one per line (or NUL-separated,
	// as find -print0 writes; blank lines are skipped), read after the
	// arguments; "-" reads Stdin. Default: none.
	List  string
	Stdin io.Reader
	// Flat walks only the files directly inside a directory argument.
	// Default: the whole tree below it.
	Flat bool
	// Hidden includes files and directories whose names start with "."
	// in walks. Default: skip them (version-control data, editor
	// backups, and the temporary files of interrupted sidecar writes).
	Hidden bool
	// Accept selects the files of a directory walk by their name and
	// first bytes (IsAudio, IsImage). Files named as arguments or in the
	// list are always taken: the user asked for them, and a wrong one
	// fails with its reason. Default: every regular file.
	Accept func(path string, head []byte) bool
	// SniffLen is how many leading bytes Accept sees (fewer for a shorter
	// file). Default SniffLen.
	SniffLen int
	// Shard keeps only the inputs of one shard (applied before reading
	// any file, so each machine sniffs only its own part). Default: all.
	Shard Shard
}

// Collection is what Collect found.
type Collection struct {
	// Inputs in order: the arguments in the order given, each directory
	// walked in lexical order, then the list's entries.
	Inputs []Input
	// Ignored counts the files of walks that were not taken: rejected by
	// Accept, hidden, not regular files (FIFOs, sockets, devices).
	Ignored int
	// OtherShards counts the inputs and walked files left to other
	// shards (which are not read, so not sorted into inputs and ignored).
	OtherShards int
	// Duplicates counts paths named more than once (kept once).
	Duplicates int
	// Skipped lists the directories not walked and why: symbolic-link
	// loops and directories already walked under another name.
	Skipped []Skipped
}

// Skipped is a directory a walk did not enter, and why.
type Skipped struct {
	Path, Reason string
}

// ErrStdinInput is returned when "-" is given as an input: a batch reads
// files, not a stream; CollectOptions.List = "-" reads paths from stdin.
var ErrStdinInput = errors.New(`batch: "-" (standard input) cannot be a batch input; give a list of paths on standard input instead`)

// Collect expands arguments and an optional list into the inputs of a
// batch. A directory argument (or list entry) is walked, following
// symbolic links, recursively unless opts.Flat; its regular files are
// taken when opts.Accept says so. A symbolic link that leads back to a
// directory being walked (a loop), or to one already walked, is skipped
// and reported in Skipped. A file argument is taken as it is, whatever
// its contents. A path that cannot be examined (a missing file, an
// unreadable directory, a dangling link) becomes an Input with Err set,
// so that it is reported as a failure rather than dropped.
//
// Collect fails only when the list cannot be read or "-" is an argument.
func Collect(args []string, opts *CollectOptions) (*Collection, error) {
	var o CollectOptions
	if opts != nil {
		o = *opts
	}
	if o.SniffLen <= 0 {
		o.SniffLen = SniffLen
	}
	c := &collector{opts: o, col: &Collection{}, seen: map[string]bool{}, walked: map[string]string{}}
	for _, a := range args {
		if a == "-" {
			return nil, ErrStdinInput
		}
		c.arg(a, false)
	}
	if o.List != "" {
		entries, err := readList(o.List, o.Stdin)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e == "-" {
				return nil, fmt.Errorf("%w (found in the list %s)", ErrStdinInput, listName(o.List))
			}
			c.arg(e, true)
		}
	}
	return c.col, nil
}

type collector struct {
	opts   CollectOptions
	col    *Collection
	seen   map[string]bool   // input paths taken
	walked map[string]string // real path of each directory walked → the name it was walked under
	head   []byte
}

// arg handles one argument or list entry.
func (c *collector) arg(p string, listed bool) {
	p = filepath.Clean(p)
	fi, err := os.Stat(p)
	if err == nil && fi.IsDir() {
		c.walk(p, p, nil)
		return
	}
	root := filepath.Dir(p)
	if listed {
		root = "."
		if filepath.IsAbs(p) {
			root = filepath.VolumeName(p) + string(filepath.Separator)
		}
	}
	in := Input{Path: p, Root: root}
	if err != nil {
		in.Err = err // *PathError names the file
	}
	c.add(in, false)
}

// add takes an input unless it was taken before or belongs to another
// shard; walked files must also pass Accept.
func (c *collector) add(in Input, sniff bool) {
	if c.seen[in.Path] {
		c.col.Duplicates++
		return
	}
	c.seen[in.Path] = true
	if !c.opts.Shard.Contains(in) {
		c.col.OtherShards++
		return
	}
	if sniff && in.Err == nil && c.opts.Accept != nil {
		ok, err := c.accept(in.Path)
		if err != nil {
			in.Err = err
		} else if !ok {
			c.col.Ignored++
			return
		}
	}
	c.col.Inputs = append(c.col.Inputs, in)
}

// accept reads the head of a file for Accept.
func (c *collector) accept(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	if cap(c.head) < c.opts.SniffLen {
		c.head = make([]byte, c.opts.SniffLen)
	}
	n, err := io.ReadFull(f, c.head[:c.opts.SniffLen])
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return c.opts.Accept(path, c.head[:n]), nil
}

// walk takes the files below dir, found under the directory argument
// root; ancestors holds the real paths of the directories being walked
// above it, to tell a loop from a second visit.
func (c *collector) walk(root, dir string, ancestors []string) {
	real, err := filepath.EvalSymlinks(dir)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		c.add(Input{Path: dir, Root: root, Err: err}, false)
		return
	}
	for _, a := range ancestors {
		if a == real {
			c.col.Skipped = append(c.col.Skipped, Skipped{dir, "symbolic-link loop: it leads back to " + c.walked[real]})
			return
		}
	}
	if first, ok := c.walked[real]; ok {
		c.col.Skipped = append(c.col.Skipped, Skipped{dir, "same directory as " + first + ", already walked"})
		return
	}
	c.walked[real] = dir
	entries, err := os.ReadDir(dir) // sorted by name
	if err != nil {
		c.add(Input{Path: dir, Root: root, Err: err}, false)
		return
	}
	ancestors = append(ancestors, real)
	for _, e := range entries {
		name := e.Name()
		if !c.opts.Hidden && strings.HasPrefix(name, ".") {
			c.col.Ignored++
			continue
		}
		p := filepath.Join(dir, name)
		mode := e.Type()
		if mode&fs.ModeSymlink != 0 {
			fi, err := os.Stat(p)
			if err != nil {
				if pe, ok := err.(*fs.PathError); ok {
					err = pe.Err
				}
				c.add(Input{Path: p, Root: root, Err: fmt.Errorf("%s: broken symbolic link: %w", p, err)}, false)
				continue
			}
			mode = fi.Mode().Type()
		}
		switch {
		case mode.IsDir():
			if !c.opts.Flat {
				c.walk(root, p, ancestors)
			}
		case mode.IsRegular():
			c.add(Input{Path: p, Root: root}, true)
		default:
			c.col.Ignored++
		}
	}
}

// String summarizes the collection in one line, e.g. "200 inputs (3
// other files ignored, 1 directory skipped)".
func (col *Collection) String() string {
	s := count(len(col.Inputs), "input", "inputs")
	var notes []string
	if col.Ignored > 0 {
		notes = append(notes, count(col.Ignored, "other file", "other files")+" ignored")
	}
	if col.OtherShards > 0 {
		notes = append(notes, fmt.Sprintf("%d in other shards", col.OtherShards))
	}
	if col.Duplicates > 0 {
		notes = append(notes, fmt.Sprintf("%d named twice", col.Duplicates))
	}
	if n := len(col.Skipped); n > 0 {
		notes = append(notes, count(n, "directory", "directories")+" skipped")
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, ", ") + ")"
	}
	return s
}

// count returns "1 thing" or "n things".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
