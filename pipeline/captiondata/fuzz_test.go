package captiondata

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

// FuzzOpenCache feeds arbitrary bytes to the cache reader: it must fail
// with ErrCache or open a cache every record of which reads or fails
// cleanly.
func FuzzOpenCache(f *testing.F) {
	dir := f.TempDir()
	for i, x := range []*fakeExtractor{newFake(1, 1, 2), newFake(2, 1, 3)} {
		path := filepath.Join(dir, string(rune('a'+i)))
		if _, err := BuildCache(context.Background(), path, fakeImages(2+i), x, nil); err != nil {
			f.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)-3])
	}
	f.Add([]byte("\x02\x00\x00\x00\x00\x00\x00\x00{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := newCache(nopCloser{bytes.NewReader(data)}, int64(len(data)), "fuzz")
		if err != nil {
			if !errors.Is(err, ErrCache) {
				t.Fatalf("error %v does not wrap ErrCache", err)
			}
			return
		}
		if c.Len() == 0 || len(c.IDs()) != c.Len() {
			t.Fatalf("%d records, %d IDs", c.Len(), len(c.IDs()))
		}
		var dst []float32
		for i := range c.Len() {
			if j, ok := c.Lookup(c.ID(i)); !ok || j != i {
				t.Fatalf("Lookup(ID(%d)) = %d, %v", i, j, ok)
			}
			dst, err = c.Features(i, dst)
			if err == nil && len(dst) != c.Spec().Values() {
				t.Fatalf("record %d: %d values, want %d", i, len(dst), c.Spec().Values())
			}
			if err != nil && !errors.Is(err, ErrCache) && !errors.Is(err, ErrIncomplete) {
				t.Fatalf("record %d: %v", i, err)
			}
		}
		if _, err := c.Verify(); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzParseDataset feeds arbitrary bytes to the Flickr8k caption parser
// and to both JSON readers: they must return images or an error, never
// panic, and what they return must have IDs and captions.
func FuzzParseDataset(f *testing.F) {
	for _, p := range []string{fixtureKarpathy, fixtureCOCO, filepath.Join(fixtureFlickr8k, "captions.txt")} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"images": [{"filename": "a", "split": "train", "sentences": [{"raw": ""}]}]}`))
	f.Add([]byte(`{"images": [{"id": 1, "file_name": "a"}], "annotations": [{"image_id": 1, "caption": "x"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		caps, err := parseFlickr8kCaptions("captions.txt", data)
		if err == nil {
			for name, cs := range caps {
				for _, c := range cs {
					if name == "" || c.text == "" || c.n < 0 {
						t.Fatalf("caption %q #%d %q", name, c.n, c.text)
					}
				}
			}
		} else if !errors.Is(err, ErrFormat) {
			t.Fatalf("captions: %v", err)
		}
		// The images do not exist: success is impossible, and the error
		// must be one of the documented ones.
		for _, parse := range []func(string, []byte, string, string) ([]Image, error){parseKarpathy, parseCOCO} {
			for _, split := range []string{"", "train", "val,test"} {
				images, err := parse("captions_train2014.json", data, split, "/nonexistent")
				if err == nil {
					t.Fatalf("read %d images that do not exist", len(images))
				}
				if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrSplit) && !errors.Is(err, ErrMissingImage) {
					t.Fatalf("%v", err)
				}
			}
		}
	})
}
