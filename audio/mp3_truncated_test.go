package audio

import (
	"bytes"
	"testing"
)

// TestMP3Truncated cuts each MP3 fixture at every byte: a cut inside a
// frame is marked truncated, a cut at a frame boundary cannot be told
// from a shorter file and is not, nor is the whole file, or the whole
// file followed by an ID3v1 tag.
func TestMP3Truncated(t *testing.T) {
	for _, name := range []string{"sine_id3.mp3", "sine_stereo.mp3", "tiny.mp3"} {
		t.Run(name, func(t *testing.T) {
			data := readFixture(t, name)
			truncated := func(b []byte) (bool, bool) {
				st, _, err := Open(bytes.NewReader(b))
				if err != nil {
					return false, false
				}
				if _, err := readAll(st, 1024); err != nil {
					t.Fatalf("%d bytes: %v", len(b), err)
				}
				return st.(interface{ Truncated() bool }).Truncated(), true
			}
			if cut, _ := truncated(data); cut {
				t.Error("the whole file is marked truncated")
			}
			tagged := append(append([]byte(nil), data...), append([]byte("TAG"), make([]byte, 125)...)...)
			if cut, _ := truncated(tagged); cut {
				t.Error("the whole file with an ID3v1 tag is marked truncated")
			}
			marked, opened := 0, 0
			for cut := len(data) - 1; cut > len(data)/2; cut -= 13 {
				c, ok := truncated(data[:cut])
				if ok {
					opened++
				}
				if c {
					marked++
				}
			}
			// Frames are hundreds of bytes: nearly every cut is inside one.
			if opened == 0 || marked < opened*9/10 {
				t.Errorf("%d of %d cuts in the second half marked truncated", marked, opened)
			}
		})
	}
}
