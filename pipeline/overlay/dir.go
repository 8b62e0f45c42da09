package overlay

import (
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/attend-go/attend/internal/atomicfile"
	"github.com/attend-go/attend/pipeline/batch"
)

var (
	// ErrOutside means a figure would land outside the output
	// directory.
	ErrOutside = errors.New("overlay: figure outside the output directory")
	// ErrExists means a file that is not a figure of this package is in
	// the way; Dir never replaces one.
	ErrExists = errors.New("overlay: a file that is not an overlay is in the way")
	// ErrNameTaken means two inputs of one Dir map to the same figure
	// (a/x.jpg and b/x.jpg given as files, or x.jpg beside x.png).
	ErrNameTaken = errors.New("overlay: two inputs share a figure name")
)

// Dir writes the figures of a batch of images into one directory, one
// file per image, named after it with its extension replaced (".png" or
// ".gif"), or added when another image beside it shares its name (b.gif
// and b.tiff → b.gif.png and b.tiff.png): the image root/a/b.jpg goes to DIR/a/b.png, mirroring the tree
// below root as batch sidecars do (batch.SidecarPath), and standard input
// to DIR/stdin.png. Root is the directory argument an image was found
// under, or a file argument's own directory (batch.Input.Root).
//
// A Dir never writes outside its directory: an image not below its root
// fails with ErrOutside, and every write goes through an os.Root, so a
// symbolic link inside the directory cannot lead a figure out of it. It
// never replaces an input (ErrOverwriteInput), a file that is not one of
// its own figures (ErrExists: a photo that happens to be called x.png),
// or the figure of another input of the same Dir (ErrNameTaken); it does
// replace its own figures from an earlier run. Figures are written to a
// temporary file and renamed into place.
//
// A Dir is safe for concurrent use by the workers of a batch.
type Dir struct {
	path string
	root *os.Root
	opts Options

	mu      sync.Mutex
	claimed map[string]string // figure, relative to path → the input it belongs to
}

// OpenDir creates the directory path if needed and returns a Dir writing
// figures drawn with opts into it.
func OpenDir(path string, opts *Options) (*Dir, error) {
	d := &Dir{path: filepath.Clean(path), claimed: map[string]string{}}
	if opts != nil {
		d.opts = *opts
	}
	if _, err := d.opts.format(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(path, 0o777); err != nil {
		return nil, fmt.Errorf("overlay: %w", err)
	}
	root, err := os.OpenRoot(path)
	if err != nil {
		return nil, fmt.Errorf("overlay: %w", err)
	}
	d.root = root
	return d, nil
}

// Close releases the directory.
func (d *Dir) Close() error { return d.root.Close() }

// Path returns where the figure of input, found under root, goes.
func (d *Dir) Path(root, input string) (string, error) {
	rel, err := d.rel(root, input)
	if err != nil {
		return "", err
	}
	return filepath.Join(d.path, rel), nil
}

// rel returns the figure's path relative to the directory.
func (d *Dir) rel(root, input string) (string, error) {
	format, _ := d.opts.format()
	if input == "-" {
		return "stdin." + string(format), nil
	}
	out, err := batch.SidecarPath(root, input, d.path, string(format))
	switch {
	case errors.Is(err, batch.ErrOutside):
		return "", named(input, fmt.Errorf("%w: the image is not below %s, so its figure has no place below %s", ErrOutside, root, d.path))
	case errors.Is(err, batch.ErrOverwriteInput):
		return "", named(input, fmt.Errorf("%w: its figure would be written over it", ErrOverwriteInput))
	case err != nil:
		return "", named(input, err)
	}
	if sharesStem(input) {
		// b.gif beside b.tiff: b.gif.png and b.tiff.png, not one b.png.
		out = filepath.Join(filepath.Dir(out), filepath.Base(input)+"."+string(format))
	}
	rel, err := filepath.Rel(d.path, out)
	if err != nil || !filepath.IsLocal(rel) {
		return "", named(input, fmt.Errorf("%w: its figure would be %s", ErrOutside, out))
	}
	return rel, nil
}

// Write draws c over img, the image input found under root, and writes
// the figure into the directory. It returns the figure's path. Errors
// name the input.
func (d *Dir) Write(root, input string, img image.Image, c *Caption) (string, error) {
	rel, err := d.rel(root, input)
	if err != nil {
		return "", err
	}
	out := filepath.Join(d.path, rel)
	if err := d.claim(rel, input); err != nil {
		return "", err
	}
	if err := d.checkExisting(rel, out, input); err != nil {
		return "", err
	}
	data, err := encode(img, c, &d.opts)
	if err != nil {
		return "", named(input, err)
	}
	if err := writeFile(d.root, rel, data); err != nil {
		return "", named(input, fmt.Errorf("writing %s: %w", out, err))
	}
	return out, nil
}

// claim records that the figure rel belongs to input, or fails if it
// belongs to another input.
func (d *Dir) claim(rel, input string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if other, ok := d.claimed[rel]; ok && other != input {
		return named(input, fmt.Errorf("%w: %s is already the figure of %s", ErrNameTaken, filepath.Join(d.path, rel), other))
	}
	d.claimed[rel] = input
	return nil
}

// checkExisting refuses to replace what is at rel unless it is a figure
// of this package that is not the input itself.
func (d *Dir) checkExisting(rel, out, input string) error {
	if input != "-" && samePath(out, input) {
		return named(input, fmt.Errorf("%w: its figure would be written over it", ErrOverwriteInput))
	}
	st, err := d.root.Stat(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		// Most often a symbolic link leading out of the directory:
		// "path escapes from parent".
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return named(input, fmt.Errorf("%w: %s: %v", ErrOutside, out, err))
	}
	if input != "-" {
		if in, err := os.Stat(input); err == nil && os.SameFile(in, st) {
			return named(input, fmt.Errorf("%w: its figure %s is the image itself", ErrOverwriteInput, out))
		}
	}
	if !st.Mode().IsRegular() || !d.holdsFigure(rel) {
		return named(input, fmt.Errorf("%w: %s exists and was not written by caption overlay; move it away or choose another directory", ErrExists, out))
	}
	return nil
}

// holdsFigure reports whether the file rel is a figure this package wrote.
func (d *Dir) holdsFigure(rel string) bool {
	f, err := d.root.Open(rel)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 2048)
	n, _ := io.ReadFull(f, head)
	return IsFigure(head[:n])
}

// writeFile writes data to rel through root atomically
// (atomicfile.WriteIn): a reader sees the old file or the whole new one.
func writeFile(root *os.Root, rel string, data []byte) error {
	return atomicfile.WriteIn(root, rel, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}, nil)
}

// stemExts are the extensions of images that may share a name but for
// it (photo.jpg and photo.png; b.gif and b.tiff).
var stemExts = []string{".jpg", ".jpeg", ".png", ".gif", ".bmp", ".tif", ".tiff", ".webp"}

// sharesStem reports whether another image file beside input has its
// name but for the extension. The figures of such images keep the whole
// name (b.gif → b.gif.png), so that each gets its own whatever the order
// they are drawn in; a lone image's figure replaces the extension
// (a.jpg → a.png).
func sharesStem(input string) bool {
	ext := filepath.Ext(input)
	stem := strings.TrimSuffix(input, ext)
	for _, e := range stemExts {
		for _, e := range []string{e, strings.ToUpper(e)} {
			if e == ext {
				continue
			}
			if st, err := os.Stat(stem + e); err == nil && st.Mode().IsRegular() {
				return true
			}
		}
	}
	return false
}
