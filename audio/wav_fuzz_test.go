package audio

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// FuzzDecodeWAV decodes mutated WAV files. Decode must never panic; it
// returns a well-formed Signal or an error wrapping a sentinel; and reading
// the same file through Open one frame at a time gives the same samples.
func FuzzDecodeWAV(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "decode", "*.wav"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		// A few hundred bytes reach every branch; the fuzzer minimises
		// long inputs slowly.
		f.Add(b[:min(len(b), 400)])
	}
	fmtS16 := wavChunk("fmt ", fmtBody(tagPCM, 1, 8000, 16))
	for _, seed := range [][]byte{
		monoWAV(tagPCM, 8000, 8, []byte{0x00, 0x80, 0xFF}),
		monoWAV(tagFloat, 8000, 32, float32LEBytes(0.5, nan, inf)),
		monoWAV(tagFloat, 8000, 64, float64LEBytes(0.5, -2)),
		monoWAV(tagMuLaw, 8000, 8, []byte{0, 0x80}),
		monoWAV(tagALaw, 8000, 8, []byte{0xD5, 0x2A}),
		riffWAVE(wavChunk("fmt ", fmtExtensibleBody(tagPCM, 3, 48000, 24, 20)), wavChunk("data", pcm24(1, 2, 3))),
		riffWAVE(wavChunk("LIST", []byte("INFOx")), fmtS16, wavChunk("data", pcm16(7)), wavChunk("JUNK", nil)),
		riffWAVE(fmtS16, wavChunkSized("data", 0xFFFFFFFF, pcm16(1, 2))),
		rf64WAVE(fmtS16, pcm16(1, 2, 3)),
		riffWAVE(fmtS16, wavChunk("data", nil)),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sig, err := DecodeWithOptions(bytes.NewReader(b), fuzzOptions)
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrNoAudio) && !errors.Is(err, ErrTooLong) {
				t.Fatalf("error wraps no sentinel: %v", err)
			}
			return
		}
		checkDecoded(t, sig)
		st, _, err := OpenWithOptions(bytes.NewReader(b), fuzzOptions)
		if err != nil {
			t.Fatalf("Decode succeeded, Open failed: %v", err)
		}
		got, err := readStream(st, 1)
		if err != nil || !slices.Equal(got, sig.Samples) {
			t.Fatalf("reading frame by frame: %d samples, %v; Decode gave %d", len(got), err, len(sig.Samples))
		}
	})
}
