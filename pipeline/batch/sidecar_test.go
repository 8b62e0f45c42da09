package batch

import (
	"errors"
	"path/filepath"
	"testing"
)

func TestSidecarPath(t *testing.T) {
	tests := []struct {
		name                     string
		root, input, outDir, ext string
		want                     string
		err                      error
	}{
		{"next to the input", "corpus", "corpus/spk1/a.wav", "", "txt", "corpus/spk1/a.txt", nil},
		{"mirrored", "corpus", "corpus/spk1/a.wav", "out", "srt", "out/spk1/a.srt", nil},
		{"absolute root", "/", "/data/c/a.flac", "out", "json", "out/data/c/a.json", nil},
		{"no extension", ".", "clip", "", "vtt", "clip.vtt", nil},
		{"two dots", "d", "d/a.b.wav", "o", "txt", "o/a.b.txt", nil},
		{"dot file", "d", "d/.wav", "", "txt", "d/.wav.txt", nil},
		{"replaces itself", "d", "d/notes.txt", "", "txt", "", ErrOverwriteInput},
		{"replaces itself in out dir", "d", "d/notes.txt", "d", "txt", "", ErrOverwriteInput},
		{"above the root", "corpus", "other/a.wav", "out", "txt", "", ErrOutside},
		{"dot-dot", ".", "../a.wav", "out", "txt", "", ErrOutside},
		{"absolute input, relative root", ".", "/a.wav", "out", "txt", "", ErrOutside},
		{"extension with a slash", "d", "d/a.wav", "", "../x", "", nil},
		{"empty extension", "d", "d/a.wav", "", "", "", nil},
		{"not a file name", "d", "d/..", "", "txt", "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SidecarPath(tc.root, filepath.FromSlash(tc.input), filepath.FromSlash(tc.outDir), tc.ext)
			if tc.want == "" {
				if err == nil || (tc.err != nil && !errors.Is(err, tc.err)) {
					t.Fatalf("SidecarPath = %q, %v; want error %v", got, err, tc.err)
				}
				return
			}
			if err != nil || got != filepath.FromSlash(tc.want) {
				t.Fatalf("SidecarPath = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
