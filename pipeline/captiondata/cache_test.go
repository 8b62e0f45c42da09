package captiondata

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeExtractor makes deterministic features from the file name, without
// reading the file, and fails for names containing "broken".
type fakeExtractor struct {
	spec  Spec
	calls *atomic.Int64
}

func newFake(h, w, d int) *fakeExtractor {
	return &fakeExtractor{
		spec:  Spec{Encoder: strings.Repeat("ab", 32), Layer: "Fake", H: h, W: w, D: d, Preprocess: "none"},
		calls: new(atomic.Int64),
	}
}

func (f *fakeExtractor) Spec() Spec       { return f.spec }
func (f *fakeExtractor) Clone() Extractor { c := *f; return &c }
func (f *fakeExtractor) Extract(dst []float32, path string) ([]float32, error) {
	f.calls.Add(1)
	if strings.Contains(path, "broken") {
		return nil, fmt.Errorf("%s: broken image", path)
	}
	return fakeFeatures(dst[:0], path, f.spec.Values()), nil
}

// fakeFeatures returns n values in [0, 6) derived from name, a fifth of
// them zero like ReLU6 features, some subnormal as float16.
func fakeFeatures(dst []float32, name string, n int) []float32 {
	h := fnv.New64a()
	h.Write([]byte(name))
	s := h.Sum64()
	for j := range n {
		s = s*6364136223846793005 + 1442695040888963407
		v := float32(s>>40) / (1 << 24) * 6
		switch j % 5 {
		case 0:
			v = 0
		case 1:
			v *= 1e-6
		}
		dst = append(dst, v)
	}
	return dst
}

// images returns n fixture images named img000.jpg, … (the fake
// extractor does not read them).
func fakeImages(n int) []Image {
	out := make([]Image, n)
	for i := range out {
		id := fmt.Sprintf("img%03d.jpg", i)
		out[i] = Image{ID: id, Path: filepath.Join("nowhere", id), Captions: []string{"A thing."}}
	}
	return out
}

// checkRecords compares every record of the cache at path with the fake
// features, which float16 must hold to half an ulp (relative 2⁻¹¹, or
// 2⁻²⁵ absolute in the subnormal range).
func checkRecords(t *testing.T, path string, images []Image, x *fakeExtractor) {
	t.Helper()
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Len() != len(images) || c.NumComplete() != len(images) {
		t.Fatalf("%d records, %d complete; want %d", c.Len(), c.NumComplete(), len(images))
	}
	var got []float32
	for i, im := range images {
		j, ok := c.Lookup(im.ID)
		if !ok || j != i || c.ID(i) != im.ID {
			t.Fatalf("Lookup(%s) = %d, %v; ID(%d) = %s", im.ID, j, ok, i, c.ID(i))
		}
		if got, err = c.Features(i, got); err != nil {
			t.Fatal(err)
		}
		want := fakeFeatures(nil, im.Path, x.spec.Values())
		if len(got) != len(want) {
			t.Fatalf("%s: %d values, want %d", im.ID, len(got), len(want))
		}
		for k := range want {
			if d := math.Abs(float64(got[k] - want[k])); d > math.Max(math.Abs(float64(want[k]))*0x1p-11, 0x1p-25) {
				t.Fatalf("%s: value %d is %v, want %v (off by %g)", im.ID, k, got[k], want[k], d)
			}
		}
	}
}

func TestCacheRoundTrip(t *testing.T) {
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.safetensors")
			images := fakeImages(11)
			x := newFake(2, 3, 4)
			var progress []int
			stats, err := BuildCache(context.Background(), path, images, x, &BuildOptions{
				Workers: workers, Source: "fake (train)",
				Progress: func(done, total int) {
					if total != len(images) {
						t.Errorf("progress total %d", total)
					}
					progress = append(progress, done)
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if want := (BuildStats{Images: 11, Extracted: 11}); stats != want {
				t.Errorf("stats %+v, want %+v", stats, want)
			}
			if len(progress) != 12 || progress[0] != 0 || progress[11] != 11 {
				t.Errorf("progress calls %v, want 0…11", progress)
			}
			checkRecords(t, path, images, x)
			c, err := OpenCache(path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if c.Spec() != x.spec || c.Source() != "fake (train)" || !equalStrings(c.IDs(), ids(images)) {
				t.Errorf("spec %+v, source %q, IDs %q", c.Spec(), c.Source(), c.IDs())
			}
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if c.Size() != st.Size() {
				t.Errorf("Size %d, file %d bytes", c.Size(), st.Size())
			}
			if bad, err := c.Verify(); err != nil || bad != nil {
				t.Errorf("Verify = %v, %v", bad, err)
			}
			if err := c.CheckImages(images); err != nil {
				t.Error(err)
			}
			// A second run finds everything done, though its Source,
			// and so the header's length, differs.
			stats, err = BuildCache(context.Background(), path, images, x, nil)
			if want := (BuildStats{Images: 11, Reused: 11}); err != nil || stats != want {
				t.Errorf("rerun: %+v, %v; want %+v", stats, err, want)
			}
		})
	}
}

// TestCacheResume interrupts an extraction and finishes it with a second
// run, which extracts only what is missing.
func TestCacheResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.safetensors")
	images := fakeImages(20)
	x := newFake(3, 3, 8)
	ctx, cancel := context.WithCancel(context.Background())
	_, err := BuildCache(ctx, path, images, x, &BuildOptions{Workers: 2, Progress: func(done, total int) {
		if done == 7 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "run again to continue") {
		t.Fatalf("interrupted run: %v, want context.Canceled", err)
	}
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	done := c.NumComplete()
	if done < 7 || done >= 20 {
		t.Errorf("%d records complete after the interruption, want 7 up to 19", done)
	}
	for i := range c.Len() {
		if _, err := c.Features(i, nil); c.Complete(i) != (err == nil) || !c.Complete(i) && !errors.Is(err, ErrIncomplete) {
			t.Errorf("record %d: complete %v, Features error %v", i, c.Complete(i), err)
		}
	}
	if err := c.CheckImages(images); !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), fmt.Sprintf("%d of 20 images were not extracted", 20-done)) {
		t.Errorf("CheckImages: %v", err)
	}
	c.Close()

	before := x.calls.Load()
	stats, err := BuildCache(context.Background(), path, images, x, &BuildOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if want := (BuildStats{Images: 20, Reused: done, Extracted: 20 - done}); stats != want {
		t.Errorf("stats %+v, want %+v", stats, want)
	}
	if calls := x.calls.Load() - before; calls != int64(20-done) {
		t.Errorf("the second run extracted %d images, want %d", calls, 20-done)
	}
	checkRecords(t, path, images, x)
}

// TestCacheRepair damages a record: reading it fails, Verify finds it and
// the next extraction redoes just that one.
func TestCacheRepair(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.safetensors")
	images := fakeImages(5)
	x := newFake(2, 2, 16)
	if _, err := BuildCache(context.Background(), path, images, x, nil); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	off := c.lay.recordOffset(3) + 17
	c.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte{0x5a}, off); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	c, err = OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Features(3, nil); !errors.Is(err, ErrCache) || !strings.Contains(err.Error(), "record 3 (img003.jpg) is damaged") {
		t.Errorf("Features of the damaged record: %v, want ErrCache", err)
	}
	if bad, err := c.Verify(); err != nil || !equalInts(bad, []int{3}) {
		t.Errorf("Verify = %v, %v; want [3]", bad, err)
	}
	c.Close()
	stats, err := BuildCache(context.Background(), path, images, x, nil)
	if want := (BuildStats{Images: 5, Reused: 4, Repaired: 1, Extracted: 1}); err != nil || stats != want {
		t.Errorf("repair: %+v, %v; want %+v", stats, err, want)
	}
	checkRecords(t, path, images, x)
}

// TestCacheFailedImage: an image that cannot be extracted is reported and
// left incomplete while the others are written.
func TestCacheFailedImage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.safetensors")
	images := fakeImages(6)
	images[2].Path = "broken.jpg"
	x := newFake(1, 2, 3)
	var failed []string
	stats, err := BuildCache(context.Background(), path, images, x, &BuildOptions{Workers: 2, Failed: func(im Image, err error) {
		failed = append(failed, im.ID+": "+err.Error())
	}})
	if !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), "1 of 6 images failed") {
		t.Errorf("error %v, want ErrIncomplete counting 1 of 6", err)
	}
	if want := (BuildStats{Images: 6, Extracted: 5, Failed: 1}); stats != want {
		t.Errorf("stats %+v, want %+v", stats, want)
	}
	if len(failed) != 1 || failed[0] != "img002.jpg: broken.jpg: broken image" {
		t.Errorf("failures reported: %q", failed)
	}
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Features(2, nil); !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), "record 2 (img002.jpg) has not been extracted") {
		t.Errorf("Features(2): %v", err)
	}
	c.Close()
	images[2].Path = filepath.Join("nowhere", "img002.jpg")
	stats, err = BuildCache(context.Background(), path, images, x, nil)
	if want := (BuildStats{Images: 6, Reused: 5, Extracted: 1}); err != nil || stats != want {
		t.Errorf("rerun: %+v, %v; want %+v", stats, err, want)
	}
	checkRecords(t, path, images, x)
}

// badExtractor returns features of the wrong size or beyond float16.
type badExtractor struct {
	fakeExtractor
	values []float32
}

func (b *badExtractor) Extract(dst []float32, path string) ([]float32, error) { return b.values, nil }
func (b *badExtractor) Clone() Extractor                                      { return b }

func TestCacheRejectsBadFeatures(t *testing.T) {
	tests := []struct {
		name   string
		values []float32
		msg    string
	}{
		{"short", []float32{1, 2, 3}, "extractor returned 3 values, want 4 (1x2x2)"},
		{"overflow", []float32{1, 2, 65520, 3}, "feature 2 is 65520, not storable as float16"},
		{"NaN", []float32{float32(math.NaN()), 0, 0, 0}, "feature 0 is NaN"},
		{"Inf", []float32{0, float32(math.Inf(-1)), 0, 0}, "feature 1 is -Inf"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := &badExtractor{fakeExtractor: *newFake(1, 2, 2), values: tc.values}
			var msgs []string
			_, err := BuildCache(context.Background(), filepath.Join(t.TempDir(), "c"), fakeImages(1), x, &BuildOptions{
				Failed: func(_ Image, err error) { msgs = append(msgs, err.Error()) },
			})
			if !errors.Is(err, ErrIncomplete) || len(msgs) != 1 || !strings.Contains(msgs[0], tc.msg) {
				t.Errorf("error %v, failures %q; want one containing %q", err, msgs, tc.msg)
			}
		})
	}
}

// TestCacheMismatch: an existing cache for other images or features is an
// error, and the file is left as it was.
func TestCacheMismatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.safetensors")
	images := fakeImages(4)
	x := newFake(2, 2, 3)
	if _, err := BuildCache(context.Background(), path, images, x, nil); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	other := func(edit func(*Spec)) *fakeExtractor {
		f := newFake(2, 2, 3)
		edit(&f.spec)
		return f
	}
	tests := []struct {
		name   string
		images []Image
		x      Extractor
		msg    string
	}{
		{"encoder", images, other(func(s *Spec) { s.Encoder = strings.Repeat("cd", 32) }), "made with encoder SHA-256 abab"},
		{"grid", images, other(func(s *Spec) { s.H, s.D = 1, 12 }), "grid 2x2x3, want 1x2x12"},
		{"layer and preprocessing", images, other(func(s *Spec) { s.Layer, s.Preprocess = "Other", "squash" }), `layer Fake, want Other; preprocessing "none", want "squash"`},
		{"fewer images", images[:3], x, "holds other images (4 images, want 3)"},
		{"other order", []Image{images[1], images[0], images[2], images[3]}, x, "image 0 is img000.jpg, want img001.jpg"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := BuildCache(context.Background(), path, tc.images, tc.x, nil)
			if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), "delete it or write elsewhere") {
				t.Errorf("error %v, want ErrMismatch with %q", err, tc.msg)
			}
			if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, orig) {
				t.Errorf("the cache changed (%v)", err)
			}
		})
	}
}

func TestCacheCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.safetensors")
	images := fakeImages(3)
	x := newFake(7, 7, 5)
	if _, err := BuildCache(context.Background(), path, images, x, nil); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want := x.Spec()
	want.Preprocess = "ignored by Check"
	if err := c.Check(want); err != nil {
		t.Errorf("Check(own spec): %v", err)
	}
	want.Encoder, want.H, want.W = strings.Repeat("01", 32), 14, 14
	err = c.Check(want)
	if !errors.Is(err, ErrMismatch) || !strings.Contains(err.Error(), "encoder SHA-256 "+x.spec.Encoder+", want 0101") || !strings.Contains(err.Error(), "grid 7x7x5, want 14x14x5") {
		t.Errorf("Check: %v", err)
	}
	extra := append(fakeImages(3), Image{ID: "new.jpg"})
	if err := c.CheckImages(extra); !errors.Is(err, ErrIncomplete) || !strings.Contains(err.Error(), "1 of 4 images are not in the cache (new.jpg)") {
		t.Errorf("CheckImages: %v", err)
	}
	if _, ok := c.Lookup("new.jpg"); ok {
		t.Error("Lookup found an absent ID")
	}
}

func TestBuildCacheErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name   string
		path   string
		images []Image
		x      Extractor
		opts   *BuildOptions
		msg    string
	}{
		{"no images", filepath.Join(dir, "a"), nil, newFake(1, 1, 1), nil, "no images"},
		{"duplicate ID", filepath.Join(dir, "b"), []Image{{ID: "a"}, {ID: "a"}}, newFake(1, 1, 1), nil, `image ID "a" appears twice`},
		{"empty ID", filepath.Join(dir, "c"), []Image{{ID: ""}}, newFake(1, 1, 1), nil, "image 0 has an empty ID"},
		{"bad spec", filepath.Join(dir, "d"), fakeImages(1), &fakeExtractor{spec: Spec{Encoder: "x", Layer: "L", H: 1, W: 1, D: 1}}, nil, "not 64 lower-case hex digits"},
		{"bad grid", filepath.Join(dir, "e"), fakeImages(1), newFake(0, 1, 1), nil, "grid 0x1x1"},
		{"negative workers", filepath.Join(dir, "f"), fakeImages(1), newFake(1, 1, 1), &BuildOptions{Workers: -1}, "-1 workers"},
		{"no directory", filepath.Join(dir, "none", "g"), fakeImages(1), newFake(1, 1, 1), nil, "no such file or directory"},
		{"not a cache", filepath.Join("testdata", "captions_val2014.json"), fakeImages(1), newFake(1, 1, 1), nil, "not a feature cache"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := BuildCache(context.Background(), tc.path, tc.images, tc.x, tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.msg) || !strings.HasPrefix(err.Error(), "captiondata: ") {
				t.Errorf("error %v, want one containing %q", err, tc.msg)
			}
		})
	}
}

// TestCacheLocked: a second extraction into a file being written fails.
func TestCacheLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.safetensors")
	images := fakeImages(2)
	x := newFake(1, 1, 2)
	if _, err := BuildCache(context.Background(), path, images, x, nil); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := lockFile(f); err != nil {
		t.Fatal(err)
	}
	_, err = BuildCache(context.Background(), path, images, x, nil)
	if errLockedSupported && (err == nil || !strings.Contains(err.Error(), "in use by another extraction")) {
		t.Errorf("second writer: %v, want the file locked", err)
	}
	if !errLockedSupported && err != nil {
		t.Errorf("second writer: %v", err)
	}
}

// TestCacheConcurrentReads reads records from many goroutines at once.
func TestCacheConcurrentReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.safetensors")
	images := fakeImages(8)
	x := newFake(2, 2, 32)
	if _, err := BuildCache(context.Background(), path, images, x, nil); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCache(path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	want := make([][]float32, len(images))
	for i := range images {
		if want[i], err = c.Features(i, nil); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			var got []float32
			for k := range 200 {
				i := (g + k) % len(images)
				got, err := c.Features(i, got)
				if err != nil {
					t.Error(err)
					return
				}
				for j := range got {
					if got[j] != want[i][j] {
						t.Errorf("goroutine %d: record %d value %d is %v, want %v", g, i, j, got[j], want[i][j])
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

// TestCacheIsSafetensors checks the file with the safetensors reader of
// package models and the layout the package documentation states.
func TestCacheIsSafetensors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.safetensors")
	images := fakeImages(3)
	x := newFake(2, 1, 4)
	if _, err := BuildCache(context.Background(), path, images, x, &BuildOptions{Source: "fake"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := binary.LittleEndian.Uint64(data)
	header := string(data[8 : 8+n])
	if n%8 != 0 {
		t.Errorf("header length %d is not a multiple of 8", n)
	}
	for _, s := range []string{
		`"__metadata__":{"attend.encoder_sha256":"abab`,
		`"attend.format_version":"1"`,
		`"attend.grid":"2x1x4"`,
		`"attend.ids":"[\"img000.jpg\",\"img001.jpg\",\"img002.jpg\"]"`,
		`"attend.kind":"caption-features"`,
		`"attend.layer":"Fake"`,
		`"attend.preprocess":"none"`,
		`"attend.source":"fake"`,
		`"features":{"dtype":"F16","shape":[3,2,4],"data_offsets":[0,48]}`,
		`"checksum":{"dtype":"U32","shape":[3],"data_offsets":[48,60]}`,
		`"complete":{"dtype":"U8","shape":[3],"data_offsets":[60,63]}`,
	} {
		if !strings.Contains(header, s) {
			t.Errorf("header lacks %s:\n%s", s, header)
		}
	}
	if want := 8 + int(n) + 63; len(data) != want {
		t.Errorf("file is %d bytes, want %d", len(data), want)
	}
	if done := data[8+n+60:]; !bytes.Equal(done, []byte{1, 1, 1}) {
		t.Errorf("completion flags %v", done)
	}
}

func TestOpenCacheErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	if _, err := BuildCache(context.Background(), good, fakeImages(2), newFake(1, 2, 2), nil); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	// edit replaces old by new (same length, so offsets stay valid).
	edit := func(old, new string) []byte {
		if len(old) != len(new) || !bytes.Contains(data, []byte(old)) {
			t.Fatalf("bad edit %q → %q", old, new)
		}
		return bytes.Replace(data, []byte(old), []byte(new), 1)
	}
	tests := []struct {
		name string
		data []byte
		err  error
		msg  string
	}{
		{"empty", nil, ErrCache, "too short"},
		{"truncated", data[:len(data)-1], ErrCache, "not a feature cache"},
		{"kind", edit(`"caption-features"`, `"caption-featurex"`), ErrCache, `attend.kind is "caption-featurex", want "caption-features"`},
		{"no kind", edit(`"attend.kind"`, `"attend.kinx"`), ErrCache, "no attend.kind in the header"},
		{"version", edit(`"attend.format_version":"1"`, `"attend.format_version":"2"`), ErrCache, "format version 2 is newer than this build reads (1)"},
		{"grid", edit(`"1x2x2"`, `"2x2x1"`), ErrCache, `tensor "features" is F16 [2 2 2], want F16 [2 4 1] (grid 2x2x1, 2 images)`},
		{"grid syntax", edit(`"1x2x2"`, `"1x2*2"`), ErrCache, `attend.grid: "1x2*2" is not HxWxD`},
		{"grid depth", edit(`"1x2x2"`, `"1x1x4"`), ErrCache, `tensor "features" is F16 [2 2 2], want F16 [2 1 4]`},
		{"ids", edit(`\"img001.jpg\"`, `\"img000.jpg\"`), ErrCache, `image ID "img000.jpg" appears twice`},
		{"ids syntax", edit(`[\"img000.jpg\"`, `{\"img000.jpg\"`), ErrCache, "attend.ids is not a JSON list of strings"},
		{"encoder", edit(`"abab`, `"ABAB`), ErrCache, "is not 64 lower-case hex digits"},
		{"dtype", edit(`"dtype":"U32"`, `"dtype":"I32"`), ErrCache, `tensor "checksum" is I32 [2], want U32 [2]`},
		{"name", edit(`"complete"`, `"completx"`), ErrCache, `no "complete" tensor`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if err := os.WriteFile(p, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := OpenCache(p)
			if err == nil {
				c.Close()
				t.Fatal("no error")
			}
			if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), p) {
				t.Errorf("error %q, want %v naming the file and containing %q", err, tc.err, tc.msg)
			}
		})
	}
	if _, err := OpenCache(filepath.Join(dir, "absent")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("absent file: %v", err)
	}
}
