package captiondata

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"sync"
)

// Cache is an open feature cache, for reading one image's features at a
// time. Its methods are safe for concurrent use: Features reads with
// ReadAt into pooled buffers, and everything else is fixed at OpenCache.
type Cache struct {
	f     file
	path  string
	lay   *layout
	index map[string]int
	sums  []uint32
	done  []bool
	count int // complete records
	bufs  sync.Pool
}

// OpenCache opens the feature cache at path and validates its header: a
// safetensors file (every offset and size checked by models), of this
// package's kind and format version, whose grid, image IDs and tensor
// shapes agree. Damage fails with ErrCache. It reads the header and the
// per-record checksums and completion flags, not the features.
//
// Records that were not complete when the file was opened read as
// ErrIncomplete, even if an extraction running meanwhile completes them;
// reopen to see its progress.
func OpenCache(path string) (*Cache, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("captiondata: feature cache: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close() // read-only: Close cannot lose data
		return nil, fmt.Errorf("captiondata: %w", err)
	}
	c, err := newCache(f, st.Size(), path)
	if err != nil {
		f.Close() // read-only: Close cannot lose data
		return nil, err
	}
	return c, nil
}

// file is what a Cache reads from: an *os.File, or bytes in tests.
type file interface {
	io.ReaderAt
	io.Closer
}

// newCache reads the header and record state of the open file f of the
// given size.
func newCache(f file, size int64, path string) (*Cache, error) {
	lay, err := readLayout(f, size, path)
	if err != nil {
		return nil, err
	}
	c := &Cache{f: f, path: path, lay: lay, index: make(map[string]int, lay.n())}
	for i, id := range lay.ids {
		c.index[id] = i
	}
	if c.sums, c.done, err = readRecordState(f, lay); err != nil {
		return nil, fmt.Errorf("captiondata: %s: reading the record table: %w", path, err)
	}
	for _, d := range c.done {
		if d {
			c.count++
		}
	}
	return c, nil
}

// readRecordState reads the checksum and completion tables.
func readRecordState(r io.ReaderAt, lay *layout) ([]uint32, []bool, error) {
	n := lay.n()
	buf := make([]byte, checksumBytes*n+n)
	if _, err := r.ReadAt(buf, lay.checksums); err != nil {
		return nil, nil, err
	}
	sums := make([]uint32, n)
	done := make([]bool, n)
	for i := range sums {
		sums[i] = binary.LittleEndian.Uint32(buf[checksumBytes*i:])
		done[i] = buf[checksumBytes*n+i] != 0
	}
	return sums, done, nil
}

// Close closes the file.
func (c *Cache) Close() error { return c.f.Close() }

// Path returns the file name the cache was opened with.
func (c *Cache) Path() string { return c.path }

// Spec returns what the features are and how they were made.
func (c *Cache) Spec() Spec { return c.lay.spec }

// Source returns the description of the dataset recorded at extraction,
// such as "flickr8k (train,dev)".
func (c *Cache) Source() string { return c.lay.source }

// Len returns the number of images (records), complete or not.
func (c *Cache) Len() int { return c.lay.n() }

// ID returns the ID of record i.
func (c *Cache) ID(i int) string { return c.lay.ids[i] }

// IDs returns the image IDs in record order.
func (c *Cache) IDs() []string { return slices.Clone(c.lay.ids) }

// Lookup returns the record of the image with the given ID.
func (c *Cache) Lookup(id string) (int, bool) {
	i, ok := c.index[id]
	return i, ok
}

// Complete reports whether record i was extracted (when the cache was
// opened).
func (c *Cache) Complete(i int) bool { return c.done[i] }

// NumComplete returns the number of complete records.
func (c *Cache) NumComplete() int { return c.count }

// Size returns the file's size in bytes.
func (c *Cache) Size() int64 { return c.lay.size }

// Check returns an error wrapping ErrMismatch, naming every difference, if
// the cache's features were made by another encoder (SHA-256), from
// another layer or with another grid shape than want.
func (c *Cache) Check(want Spec) error {
	if d := mismatch(c.lay.spec, want); d != "" {
		return errorf(ErrMismatch, c.path, "features made with %s", d)
	}
	return nil
}

// CheckImages verifies that every image has a complete record, failing
// with ErrIncomplete (counting and naming the first few that do not) so a
// training run learns at the start, not midway, that its cache falls
// short.
func (c *Cache) CheckImages(images []Image) error {
	const show = 3
	var absent, incomplete []string
	na, ni := 0, 0
	for _, im := range images {
		i, ok := c.index[im.ID]
		switch {
		case !ok:
			if na++; na <= show {
				absent = append(absent, im.ID)
			}
		case !c.done[i]:
			if ni++; ni <= show {
				incomplete = append(incomplete, im.ID)
			}
		}
	}
	if na == 0 && ni == 0 {
		return nil
	}
	msg := ""
	if na > 0 {
		msg = fmt.Sprintf("%d of %d images are not in the cache (%s)", na, len(images), listSome(absent, na))
	}
	if ni > 0 {
		if msg != "" {
			msg += "; "
		}
		msg += fmt.Sprintf("%d of %d images were not extracted (%s; rerun the extraction)", ni, len(images), listSome(incomplete, ni))
	}
	return errorf(ErrIncomplete, c.path, "%s", msg)
}

// Features reads the features of record i: L×D row-major, row y·W+x the
// D channels of grid cell (x, y), converted exactly from float16. The
// result is written to dst if it has the capacity, else to a new slice.
// It fails with ErrIncomplete for a record not extracted and with ErrCache
// when the bytes read do not match the record's CRC-32C. It panics if i
// is out of range, like a slice index.
func (c *Cache) Features(i int, dst []float32) ([]float32, error) {
	if i < 0 || i >= c.lay.n() {
		panic(fmt.Sprintf("captiondata: record %d out of range [0, %d)", i, c.lay.n()))
	}
	if !c.done[i] {
		return nil, errorf(ErrIncomplete, c.path, "record %d (%s) has not been extracted", i, c.lay.ids[i])
	}
	bp, _ := c.bufs.Get().(*[]byte)
	if bp == nil {
		b := make([]byte, c.lay.recordBytes)
		bp = &b
	}
	defer c.bufs.Put(bp)
	buf := *bp
	if _, err := c.f.ReadAt(buf, c.lay.recordOffset(i)); err != nil {
		return nil, fmt.Errorf("captiondata: %s: record %d (%s): %w", c.path, i, c.lay.ids[i], err)
	}
	if sum := crc32.Checksum(buf, castagnoli); sum != c.sums[i] {
		return nil, errorf(ErrCache, c.path, "record %d (%s) is damaged: CRC-32C %08x, want %08x (rerun the extraction to repair it)",
			i, c.lay.ids[i], sum, c.sums[i])
	}
	n := c.lay.spec.Values()
	if cap(dst) < n {
		dst = make([]float32, n)
	}
	dst = dst[:n]
	decodeHalves(dst, buf)
	return dst, nil
}

// Verify reads every complete record and checks its CRC-32C, returning
// the records that fail (nil if none). It reads the whole file.
func (c *Cache) Verify() ([]int, error) {
	bad, err := verifyRecords(c.f, c.lay, c.sums, c.done)
	if err != nil {
		return nil, fmt.Errorf("captiondata: %s: %w", c.path, err)
	}
	return bad, nil
}

// verifyRecords returns the complete records whose bytes do not match
// their checksum.
func verifyRecords(r io.ReaderAt, lay *layout, sums []uint32, done []bool) ([]int, error) {
	var bad []int
	buf := make([]byte, lay.recordBytes)
	for i, d := range done {
		if !d {
			continue
		}
		if _, err := r.ReadAt(buf, lay.recordOffset(i)); err != nil {
			return nil, fmt.Errorf("record %d: %w", i, err)
		}
		if crc32.Checksum(buf, castagnoli) != sums[i] {
			bad = append(bad, i)
		}
	}
	return bad, nil
}

// listSome joins the first names of n, adding how many more there are.
func listSome(names []string, n int) string {
	s := ""
	for i, name := range names {
		if i > 0 {
			s += ", "
		}
		s += name
	}
	if n > len(names) {
		s += fmt.Sprintf(" and %d more", n-len(names))
	}
	return s
}
