package audio

import (
	"bytes"
	"errors"
	"testing"
)

// TestFLACTruncated cuts FLAC files at every byte and checks that what
// decodes is the start of the whole file's audio, exactly, marked
// Truncated: the frames before the cut and, inside the frame it falls
// in, the samples before it (the fixtures are one frame each, so without
// those a cut file would hold no audio at all). A mono file keeps more
// audio the later the cut; a stereo one keeps the samples of its first
// frame only once the cut is past the first channel's subframe.
func TestFLACTruncated(t *testing.T) {
	for _, name := range []string{"sine.flac", "tiny.flac", "sine_s24_stereo.flac"} {
		t.Run(name, func(t *testing.T) {
			data := readFixture(t, name)
			whole, err := Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			prev, kept := 0, 0
			for cut := 1; cut < len(data); cut++ {
				st, _, err := Open(bytes.NewReader(data[:cut]))
				if err != nil {
					if !errors.Is(err, ErrFormat) {
						t.Fatalf("cut at %d: %v, want an error wrapping ErrFormat", cut, err)
					}
					continue // in the header
				}
				got, err := readAll(st, 256*st.Channels())
				if err != nil {
					t.Fatalf("cut at %d: %v", cut, err)
				}
				if !st.(interface{ Truncated() bool }).Truncated() {
					t.Errorf("cut at %d: not marked truncated", cut)
				}
				if len(got) > len(whole.Samples) || !equalFloats(got, whole.Samples[:len(got)]) {
					t.Fatalf("cut at %d: %d samples that are not the start of the whole file's", cut, len(got))
				}
				if whole.Channels == 1 && len(got) < prev {
					t.Errorf("cut at %d: %d samples, fewer than the %d of a cut before", cut, len(got), prev)
				}
				prev = len(got)
				if len(got) > 0 {
					kept++
				}
			}
			if prev < len(whole.Samples)*9/10 || kept < 10 {
				t.Errorf("the file cut before its last byte keeps %d of %d samples; %d cuts kept any", prev, len(whole.Samples), kept)
			}
		})
	}
}

func equalFloats(a, b []float32) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
