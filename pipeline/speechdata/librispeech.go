package speechdata

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// audioExtensions are tried in order for a LibriSpeech utterance id.
var audioExtensions = []string{".flac", ".wav", ".ogg", ".mp3"}

// readLibriSpeech reads every *.trans.txt under root: lines "ID WORDS…",
// the audio ID.flac (or .wav, .ogg, .mp3) beside the transcript file and
// the speaker the ID up to its first '-'.
func readLibriSpeech(root string) ([]Utterance, error) {
	var transcripts []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".trans.txt") {
			transcripts = append(transcripts, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("speechdata: %w", err)
	}
	if len(transcripts) == 0 {
		return nil, fmt.Errorf("speechdata: %s: %w: no wav.scp or text (Kaldi), no *.trans.txt (LibriSpeech)", root, ErrNotManifest)
	}
	var utts []Utterance
	ids := seen{}
	for _, file := range transcripts {
		dir := filepath.Dir(file)
		files, err := fileNames(dir)
		if err != nil {
			return nil, err
		}
		err = eachLine(file, func(line int, text string) error {
			text = strings.TrimSpace(text)
			id, words := text, ""
			if i := strings.IndexAny(text, " \t"); i >= 0 {
				id, words = text[:i], strings.TrimSpace(text[i+1:])
			}
			if err := ids.add(id, file, line); err != nil {
				return err
			}
			audio := ""
			for _, ext := range audioExtensions {
				if files[id+ext] {
					audio = filepath.Join(dir, id+ext)
					break
				}
			}
			if audio == "" {
				return lineError(file, line, ErrMissing, "no audio %s.flac (or %s) in %s",
					id, strings.Join(audioExtensions[1:], ", "), dir)
			}
			speaker, _, _ := strings.Cut(id, "-")
			utts = append(utts, Utterance{ID: id, Path: audio, Text: words, Speaker: speaker})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return utts, nil
}

// fileNames returns the names of the regular files (and links) in dir.
func fileNames(dir string) (map[string]bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("speechdata: %w", err)
	}
	names := make(map[string]bool, len(entries))
	for _, e := range entries {
		if !e.IsDir() {
			names[e.Name()] = true
		}
	}
	return names, nil
}
