package speechdata

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadKaldi(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"wav.scp": "spk1-u2 /abs/u2.wav\nspk1-u1 wav/u1.wav\nspk2-u3\twav/u 3.wav\n",
		"text":    "spk1-u1 HELLO  WORLD \nspk1-u2\tGOOD NIGHT\r\nspk2-u3\n",
		"utt2spk": "spk1-u1 spk1\nspk1-u2 spk1\nspk2-u3 spk2\n",
	})
	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Utterance{
		{ID: "spk1-u1", Path: filepath.Join(dir, "wav/u1.wav"), Text: "HELLO  WORLD", Speaker: "spk1"},
		{ID: "spk1-u2", Path: "/abs/u2.wav", Text: "GOOD NIGHT", Speaker: "spk1"},
		{ID: "spk2-u3", Path: filepath.Join(dir, "wav/u 3.wav"), Text: "", Speaker: "spk2"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestReadKaldiWithoutUtt2spk(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"wav.scp": "u1 a.wav\n", "text": "u1 hi\n"})
	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []Utterance{{ID: "u1", Path: filepath.Join(dir, "a.wav"), Text: "hi"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

func TestReadKaldiErrors(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		sentinel error
		msg      string
	}{
		{"piped command", map[string]string{
			"wav.scp": "u1 a.wav\nu2 sox b.sph -t wav - |\n", "text": "u1 a\nu2 b\n"},
			ErrUnsupported, `wav.scp:2: not supported: piped command "sox b.sph -t wav - |"`},
		{"archive offset", map[string]string{"wav.scp": "u1 data/wav.ark:1234\n", "text": "u1 a\n"},
			ErrUnsupported, `wav.scp:1: not supported: archive reference "data/wav.ark:1234"`},
		{"segments", map[string]string{"wav.scp": "r1 a.wav\n", "text": "u1 a\n", "segments": "u1 r1 0 1\n"},
			ErrUnsupported, "segments: not supported"},
		{"wav.scp line without path", map[string]string{"wav.scp": "u1 a.wav\nu2\n", "text": "u1 a\nu2 b\n"},
			ErrSyntax, `wav.scp:2: malformed line: want "u2" followed by a value`},
		{"text id not in wav.scp", map[string]string{"wav.scp": "u1 a.wav\n", "text": "u1 a\nu2 b\n"},
			ErrMissing, `text:2: missing entry: utterance "u2" is not in`},
		{"wav.scp id without text", map[string]string{"wav.scp": "u1 a.wav\nu3 c.wav\nu2 b.wav\n", "text": "u1 a\n"},
			ErrMissing, `wav.scp:2: missing entry: utterance "u3" has no transcript in`},
		{"utterance missing from utt2spk", map[string]string{"wav.scp": "u1 a.wav\nu2 b.wav\n", "text": "u1 a\nu2 b\n", "utt2spk": "u1 s\n"},
			ErrMissing, `text:2: missing entry: utterance "u2" is not in`},
		{"utt2spk id without text", map[string]string{"wav.scp": "u1 a.wav\n", "text": "u1 a\n", "utt2spk": "u1 s\nu9 s\n"},
			ErrMissing, `utt2spk:2: missing entry: utterance "u9" has no transcript`},
		{"utt2spk with two speakers", map[string]string{"wav.scp": "u1 a.wav\n", "text": "u1 a\n", "utt2spk": "u1 s t\n"},
			ErrSyntax, `utt2spk:1: malformed line: want utterance-id speaker-id, got "u1 s t"`},
		{"duplicate id in text", map[string]string{"wav.scp": "u1 a.wav\n", "text": "u1 a\n\nu1 b\n"},
			ErrDuplicateID, `text:3: duplicate utterance id "u1", first at `},
		{"duplicate id in wav.scp", map[string]string{"wav.scp": "u1 a.wav\nu1 b.wav\n", "text": "u1 a\n"},
			ErrDuplicateID, `wav.scp:2: duplicate utterance id "u1"`},
		{"no wav.scp", map[string]string{"text": "u1 a\n"}, nil, "Kaldi data directory without wav.scp"},
		{"empty", map[string]string{"wav.scp": "", "text": "\n"}, ErrEmpty, "no utterances"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			_, err := Read(dir)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.sentinel != nil && !errors.Is(err, tt.sentinel) {
				t.Errorf("error %v, want %v", err, tt.sentinel)
			}
			if !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "speechdata: ") {
				t.Errorf("error %q, want it to start with \"speechdata: \" and contain %q", err, tt.msg)
			}
		})
	}
}
