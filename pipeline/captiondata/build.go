package captiondata

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"slices"
	"sync"

	"github.com/attend-go/attend/internal/atomicfile"
)

// An Extractor computes the feature grid of image files. It need not be
// safe for concurrent use: BuildCache gives every extra worker goroutine
// its own Clone.
type Extractor interface {
	// Spec describes the features Extract returns.
	Spec() Spec
	// Extract returns the features of the image file at path, L×D
	// row-major (Spec's shape), written to dst if it has the capacity.
	Extract(dst []float32, path string) ([]float32, error)
	// Clone returns an Extractor with the same Spec and its own buffers.
	Clone() Extractor
}

// BuildOptions configures BuildCache. A nil *BuildOptions, or the zero
// value, means defaults; each field documents its own.
type BuildOptions struct {
	// Workers is the number of images extracted at once, each on its own
	// goroutine with its own Clone of the Extractor. Zero means 1.
	Workers int
	// Source describes the dataset for the header, such as
	// "flickr8k (train,dev)". Default empty. It is not compared when an
	// extraction resumes.
	Source string
	// Progress, if set, is called after every record with the number of
	// complete records and the total, from the goroutine that called
	// BuildCache.
	Progress func(done, total int)
	// Failed, if set, is called for every image that could not be
	// extracted (its record stays incomplete), from the goroutine that
	// called BuildCache.
	Failed func(img Image, err error)
}

// BuildStats counts what BuildCache did.
type BuildStats struct {
	Images    int `json:"images"`    // records in the cache
	Reused    int `json:"reused"`    // complete before this run, their checksums verified
	Repaired  int `json:"repaired"`  // marked complete but failing their checksum: extracted again
	Extracted int `json:"extracted"` // extracted by this run
	Failed    int `json:"failed"`    // could not be extracted: left incomplete
}

// errLocked means another process is writing the cache.
var errLocked = errors.New("in use by another extraction (the file is locked)")

// BuildCache extracts the features of images with x into the cache file
// at path, or completes the cache already there.
//
// A new cache is written to a temporary file (header, then the data area
// allocated, sparse where the file system allows) and linked into place,
// so path never holds a file without a valid header. If path exists, its
// header must have x's Spec and exactly these image IDs in this order,
// else the error wraps ErrMismatch and the file is left alone; its
// complete records are read back and their CRC-32C checked, and only the
// incomplete or damaged ones are extracted. So a killed run is resumed by
// running it again.
//
// Each record is written with WriteAt as its image finishes: the float16
// features, then the checksum, then the completion flag; the file is
// synced at the end. An image that fails (unreadable, not an image,
// features of the wrong size or beyond the float16 range) is reported to
// opts.Failed and left incomplete while the others go on; BuildCache then
// returns an error wrapping ErrIncomplete. Cancelling ctx stops the
// workers after their current image and returns ctx's error: what is
// complete stays complete. Failing to write the file stops everything.
//
// On Unix the file is locked while BuildCache works: a second extraction
// into it fails at once instead of interleaving.
func BuildCache(ctx context.Context, path string, images []Image, x Extractor, opts *BuildOptions) (BuildStats, error) {
	var o BuildOptions
	if opts != nil {
		o = *opts
	}
	if o.Workers < 0 {
		return BuildStats{}, fmt.Errorf("captiondata: %d workers", o.Workers)
	}
	o.Workers = max(o.Workers, 1)
	spec := x.Spec()
	ids := make([]string, len(images))
	for i, im := range images {
		ids[i] = im.ID
	}
	lay, head, err := newLayout(spec, ids, o.Source)
	if err != nil {
		return BuildStats{}, fmt.Errorf("captiondata: %s: %w", path, err)
	}
	f, lay, err := openForBuild(path, lay, head)
	if err != nil {
		return BuildStats{}, err
	}
	stats, err := fill(ctx, f, path, images, x, lay, o)
	if serr := f.Sync(); err == nil && serr != nil {
		err = fmt.Errorf("captiondata: %s: %w", path, serr)
	}
	if cerr := f.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("captiondata: %s: %w", path, cerr)
	}
	if err == nil && stats.Failed > 0 {
		err = errorf(ErrIncomplete, path, "%d of %d images failed; their records are incomplete", stats.Failed, stats.Images)
	}
	return stats, err
}

// openForBuild opens the cache at path for writing, creating it if
// absent, and checks that an existing one matches lay. It returns the
// file's own layout, whose offsets differ from lay's when the header does
// (another Source).
func openForBuild(path string, lay *layout, head []byte) (*os.File, *layout, error) {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		if err = create(path, lay, head); err != nil {
			return nil, nil, err
		}
		f, err = os.OpenFile(path, os.O_RDWR, 0)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("captiondata: feature cache: %w", err)
	}
	if err := lockFile(f); err != nil {
		f.Close() // nothing written yet
		return nil, nil, fmt.Errorf("captiondata: %s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close() // nothing written yet
		return nil, nil, fmt.Errorf("captiondata: %s: %w", path, err)
	}
	have, err := matchLayout(f, st.Size(), path, lay)
	if err != nil {
		f.Close() // nothing written yet
		return nil, nil, err
	}
	return f, have, nil
}

// matchLayout reads the layout of the cache file r and checks that it was
// made for lay's images and Spec.
func matchLayout(r *os.File, size int64, path string, lay *layout) (*layout, error) {
	have, err := readLayout(r, size, path)
	if err != nil {
		return nil, fmt.Errorf("%w (delete it to start again)", err)
	}
	if have.spec != lay.spec {
		d := mismatch(have.spec, lay.spec)
		if have.spec.Preprocess != lay.spec.Preprocess {
			if d != "" {
				d += "; "
			}
			d += fmt.Sprintf("preprocessing %q, want %q", have.spec.Preprocess, lay.spec.Preprocess)
		}
		return nil, errorf(ErrMismatch, path, "the existing cache was made with %s; delete it or write elsewhere", d)
	}
	if !slices.Equal(have.ids, lay.ids) {
		return nil, errorf(ErrMismatch, path, "the existing cache holds other images (%s); delete it or write elsewhere", idDifference(have.ids, lay.ids))
	}
	return have, nil
}

// idDifference describes the first difference between two ID lists.
func idDifference(have, want []string) string {
	for i := range min(len(have), len(want)) {
		if have[i] != want[i] {
			return fmt.Sprintf("image %d is %s, want %s", i, have[i], want[i])
		}
	}
	return fmt.Sprintf("%d images, want %d", len(have), len(want))
}

// create writes a new, empty cache: a temporary file beside path, linked
// to path only once complete, so that a crash never leaves a headerless
// file there. If path appeared meanwhile (a concurrent creator), the file
// there wins; on a file system without hard links the file is renamed
// instead, and the later creator wins.
func create(path string, lay *layout, head []byte) error {
	// Mode 0644 whatever the umask: a cache is shared data.
	tmp, err := atomicfile.Create(path, &atomicfile.Options{Perm: 0o644, NoReplace: true})
	if err != nil {
		return fmt.Errorf("captiondata: feature cache: %w", err)
	}
	_, err = tmp.Write(head)
	if err == nil {
		err = tmp.Truncate(lay.size)
	}
	if err != nil {
		tmp.Abort()
		return fmt.Errorf("captiondata: creating %s: %w", path, err)
	}
	if err := tmp.Commit(); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("captiondata: creating %s: %w", path, err)
	}
	return nil
}

// result is one worker's outcome for record i.
type result struct {
	i   int
	err error // the image's failure
	io  error // a write failure: fatal
}

// fill verifies the complete records of the open cache f and extracts the
// rest.
func fill(ctx context.Context, f *os.File, path string, images []Image, x Extractor, lay *layout, o BuildOptions) (BuildStats, error) {
	stats := BuildStats{Images: lay.n()}
	sums, done, err := readRecordState(f, lay)
	if err != nil {
		return stats, fmt.Errorf("captiondata: %s: reading the record table: %w", path, err)
	}
	bad, err := verifyRecords(f, lay, sums, done)
	if err != nil {
		return stats, fmt.Errorf("captiondata: %s: %w", path, err)
	}
	for _, i := range bad {
		done[i] = false
		if _, err := f.WriteAt([]byte{0}, lay.complete+int64(i)); err != nil {
			return stats, fmt.Errorf("captiondata: %s: %w", path, err)
		}
	}
	stats.Repaired = len(bad)
	var todo []int
	for i, d := range done {
		if d {
			stats.Reused++
		} else {
			todo = append(todo, i)
		}
	}
	complete := stats.Reused
	if o.Progress != nil {
		o.Progress(complete, stats.Images)
	}
	if len(todo) == 0 {
		return stats, nil
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan int)
	results := make(chan result)
	var wg sync.WaitGroup
	for w := range min(o.Workers, len(todo)) {
		xw := x
		if w > 0 {
			xw = x.Clone()
		}
		wg.Go(func() {
			rw := recordWriter{f: f, lay: lay, x: xw, half: make([]byte, lay.recordBytes)}
			for i := range jobs {
				results <- rw.write(i, images[i].Path)
			}
		})
	}
	go func() {
		defer close(jobs)
		for _, i := range todo {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	var fatal error
	for r := range results {
		switch {
		case r.io != nil:
			if fatal == nil {
				fatal = fmt.Errorf("captiondata: %s: writing record %d: %w", path, r.i, r.io)
				cancel()
			}
		case r.err != nil:
			stats.Failed++
			if o.Failed != nil {
				o.Failed(images[r.i], r.err)
			}
		default:
			stats.Extracted++
			complete++
			if o.Progress != nil {
				o.Progress(complete, stats.Images)
			}
		}
	}
	if fatal != nil {
		return stats, fatal
	}
	if err := ctx.Err(); err != nil && stats.Extracted+stats.Failed < len(todo) {
		return stats, fmt.Errorf("captiondata: %s: stopped with %d of %d records complete (run again to continue): %w",
			path, complete, stats.Images, context.Cause(ctx))
	}
	return stats, nil
}

// recordWriter extracts images and writes their records; one per worker.
type recordWriter struct {
	f     *os.File
	lay   *layout
	x     Extractor
	feats []float32
	half  []byte
}

// write extracts the image of record i from path and writes the record.
func (w *recordWriter) write(i int, path string) result {
	var err error
	w.feats, err = w.x.Extract(w.feats[:0], path)
	if err != nil {
		return result{i: i, err: err}
	}
	if want := w.lay.spec.Values(); len(w.feats) != want {
		return result{i: i, err: fmt.Errorf("captiondata: %s: extractor returned %d values, want %d (%s)", path, len(w.feats), want, w.lay.spec.GridString())}
	}
	if j := encodeHalves(w.half, w.feats); j >= 0 {
		return result{i: i, err: fmt.Errorf("captiondata: %s: feature %d is %v, not storable as float16 (NaN or beyond ±65504)", path, j, w.feats[j])}
	}
	var sum [checksumBytes]byte
	binary.LittleEndian.PutUint32(sum[:], crc32.Checksum(w.half, castagnoli))
	if _, err := w.f.WriteAt(w.half, w.lay.recordOffset(i)); err != nil {
		return result{i: i, io: err}
	}
	if _, err := w.f.WriteAt(sum[:], w.lay.checksums+int64(checksumBytes*i)); err != nil {
		return result{i: i, io: err}
	}
	if _, err := w.f.WriteAt([]byte{1}, w.lay.complete+int64(i)); err != nil {
		return result{i: i, io: err}
	}
	return result{i: i}
}
