package batch

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestCollectList(t *testing.T) {
	abs := filepath.Join(t.TempDir(), "x.wav")
	tests := []struct {
		name  string
		list  string
		want  []Input
		isErr error
	}{
		{"lines", "a/b.wav\r\n\n" + abs + "\n./c.wav", []Input{
			{Path: "a/b.wav", Root: "."},
			{Path: abs, Root: "/"},
			{Path: "c.wav", Root: "."},
		}, nil},
		{"NUL-separated", "a b.wav\x00new\nline.wav\x00", []Input{
			{Path: "a b.wav", Root: "."},
			{Path: "new\nline.wav", Root: "."},
		}, nil},
		{"stdin entry", "a.wav\n-\n", nil, ErrStdinInput},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			col, err := Collect(nil, &CollectOptions{List: "-", Stdin: strings.NewReader(tc.list)})
			if tc.isErr != nil {
				if !errors.Is(err, tc.isErr) {
					t.Fatalf("Collect: %v, want %v", err, tc.isErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []Input
			for _, in := range col.Inputs {
				in.Err = nil // the files do not exist
				got = append(got, in)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("inputs %q, want %q", got, tc.want)
			}
		})
	}
}

func TestCollectErrors(t *testing.T) {
	if _, err := Collect([]string{"a.wav", "-"}, nil); !errors.Is(err, ErrStdinInput) {
		t.Errorf(`"-" as an argument: %v, want ErrStdinInput`, err)
	}
	missing := filepath.Join(t.TempDir(), "list.txt")
	if _, err := Collect(nil, &CollectOptions{List: missing}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing list: %v, want an error naming it", err)
	}
	if _, err := Collect(nil, &CollectOptions{List: "-"}); err == nil {
		t.Error("list on a nil stdin: no error")
	}
}

// TestCollectUnreadableDirectory checks that a directory the walk cannot
// read becomes a failed input rather than vanishing. (Permissions cannot
// make one unreadable for root, so a directory removed under the walk
// stands in.)
func TestCollectUnreadableDirectory(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	c := &collector{col: &Collection{}, seen: map[string]bool{}, walked: map[string]string{}}
	c.walk("root", gone, nil)
	if len(c.col.Inputs) != 1 || c.col.Inputs[0].Path != gone || !errors.Is(c.col.Inputs[0].Err, os.ErrNotExist) {
		t.Errorf("inputs %+v, want %s failed as missing", c.col.Inputs, gone)
	}
}

func TestIsAudioAndIsImage(t *testing.T) {
	tests := []struct {
		name       string
		path       string
		head       []byte
		audio, img bool
	}{
		{"wav by content", "x", []byte("RIFF\x24\x00\x00\x00WAVEfmt "), true, false},
		{"flac by content", "x.dat", []byte("fLaC\x00\x00\x00\x22"), true, false},
		{"empty wav by name", "x.WAV", nil, true, false},
		{"m4a by name", "x.m4a", []byte("\x00\x00\x00\x20ftypM4A "), true, false},
		{"text named txt", "x.txt", []byte("hello"), false, false},
		{"png by content", "x", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"), false, true},
		{"jpeg by content", "x.bin", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00"), false, true},
		{"webp by content", "x", []byte("RIFF\x24\x00\x00\x00WEBPVP8 "), false, true},
		{"heic by name", "x.heic", []byte("\x00\x00\x00\x18ftypheic"), false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := IsAudio(tc.path, tc.head); got != tc.audio {
				t.Errorf("IsAudio = %v, want %v", got, tc.audio)
			}
			if got := IsImage(tc.path, tc.head); got != tc.img {
				t.Errorf("IsImage = %v, want %v", got, tc.img)
			}
		})
	}
}
