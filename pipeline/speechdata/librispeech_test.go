package speechdata

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadLibriSpeech(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"LibriSpeech/dev-clean/84/121123/84-121123.trans.txt": "84-121123-0000 GO DO YOU HEAR\n84-121123-0001 BUT IN LESS THAN FIVE MINUTES\n",
		"LibriSpeech/dev-clean/84/121123/84-121123-0000.flac": "",
		"LibriSpeech/dev-clean/84/121123/84-121123-0001.wav":  "",
		"LibriSpeech/dev-clean/84/121123/84-121123-0001.ogg":  "", // .wav comes first
		"LibriSpeech/dev-clean/174/50561/174-50561.trans.txt": "174-50561-0000 FORGOTTEN TOO THE NAME OF GILLIAN\r\n",
		"LibriSpeech/dev-clean/174/50561/174-50561-0000.mp3":  "",
		"LibriSpeech/README.TXT":                              "not a transcript",
	})
	got, err := Read(root)
	if err != nil {
		t.Fatal(err)
	}
	d174 := filepath.Join(root, "LibriSpeech/dev-clean/174/50561")
	d84 := filepath.Join(root, "LibriSpeech/dev-clean/84/121123")
	want := []Utterance{ // transcript files in lexical path order: 174 before 84
		{ID: "174-50561-0000", Path: filepath.Join(d174, "174-50561-0000.mp3"), Text: "FORGOTTEN TOO THE NAME OF GILLIAN", Speaker: "174"},
		{ID: "84-121123-0000", Path: filepath.Join(d84, "84-121123-0000.flac"), Text: "GO DO YOU HEAR", Speaker: "84"},
		{ID: "84-121123-0001", Path: filepath.Join(d84, "84-121123-0001.wav"), Text: "BUT IN LESS THAN FIVE MINUTES", Speaker: "84"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestReadLibriSpeechErrors(t *testing.T) {
	tests := []struct {
		name     string
		files    map[string]string
		sentinel error
		msg      string
	}{
		{"missing audio", map[string]string{
			"1/2/1-2.trans.txt": "1-2-0000 A\n1-2-0001 B\n", "1/2/1-2-0000.flac": ""},
			ErrMissing, "1-2.trans.txt:2: missing entry: no audio 1-2-0001.flac (or .wav, .ogg, .mp3) in "},
		{"duplicate id across files", map[string]string{
			"1/2/1-2.trans.txt": "1-2-0000 A\n", "1/2/1-2-0000.flac": "",
			"1/3/1-3.trans.txt": "1-2-0000 B\n", "1/3/1-2-0000.flac": ""},
			ErrDuplicateID, `1-3.trans.txt:1: duplicate utterance id "1-2-0000", first at `},
		{"no transcripts", map[string]string{"a.flac": "", "notes.txt": "x"},
			ErrNotManifest, "not a manifest: no wav.scp or text (Kaldi), no *.trans.txt (LibriSpeech)"},
		{"empty transcripts", map[string]string{"1/2/1-2.trans.txt": "\n"}, ErrEmpty, "no utterances"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tt.files)
			_, err := Read(dir)
			if !errors.Is(err, tt.sentinel) {
				t.Fatalf("error %v, want %v", err, tt.sentinel)
			}
			if !strings.Contains(err.Error(), tt.msg) || !strings.HasPrefix(err.Error(), "speechdata: ") {
				t.Errorf("error %q, want it to start with \"speechdata: \" and contain %q", err, tt.msg)
			}
		})
	}
}
