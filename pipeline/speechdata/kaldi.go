package speechdata

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// isKaldiDir reports whether dir holds a Kaldi wav.scp or text file.
func isKaldiDir(dir string) bool {
	for _, name := range []string{"wav.scp", "text"} {
		if info, err := os.Stat(filepath.Join(dir, name)); err == nil && !info.IsDir() {
			return true
		}
	}
	return false
}

// arkOffset matches a Kaldi extended filename with a byte offset
// ("foo.ark:1234"), which points into an archive rather than at a file.
var arkOffset = regexp.MustCompile(`:\d+$`)

// kaldiEntry is the value of one id in a Kaldi table and where it was.
type kaldiEntry struct {
	value string
	line  int
}

// readKaldi reads a Kaldi data directory: wav.scp and text, optionally
// utt2spk.
func readKaldi(dir string) ([]Utterance, error) {
	if _, err := os.Stat(filepath.Join(dir, "segments")); err == nil {
		return nil, fmt.Errorf("speechdata: %s: %w: segments (utterances cut from longer recordings)",
			filepath.Join(dir, "segments"), ErrUnsupported)
	}
	scpFile := filepath.Join(dir, "wav.scp")
	textFile := filepath.Join(dir, "text")
	spkFile := filepath.Join(dir, "utt2spk")
	for _, f := range []string{scpFile, textFile} {
		if _, err := os.Stat(f); err != nil {
			return nil, fmt.Errorf("speechdata: %s: Kaldi data directory without %s: %w", dir, filepath.Base(f), err)
		}
	}

	wavs, _, err := readKaldiTable(scpFile, true)
	if err != nil {
		return nil, err
	}
	for _, e := range wavs {
		rx := e.value
		switch {
		case strings.HasSuffix(rx, "|"):
			return nil, lineError(scpFile, e.line, ErrUnsupported, "piped command %q: convert the audio to files first", rx)
		case strings.HasPrefix(rx, "ark:") || strings.HasPrefix(rx, "scp:") || arkOffset.MatchString(rx):
			return nil, lineError(scpFile, e.line, ErrUnsupported, "archive reference %q: want a path to an audio file", rx)
		}
	}
	texts, order, err := readKaldiTable(textFile, false)
	if err != nil {
		return nil, err
	}
	var speakers map[string]kaldiEntry
	if _, err := os.Stat(spkFile); err == nil {
		if speakers, _, err = readKaldiTable(spkFile, true); err != nil {
			return nil, err
		}
		for id, e := range speakers {
			if strings.ContainsAny(e.value, " \t") {
				return nil, lineError(spkFile, e.line, ErrSyntax, "want utterance-id speaker-id, got %q", id+" "+e.value)
			}
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("speechdata: %w", err)
	}

	utts := make([]Utterance, 0, len(order))
	for _, id := range order {
		t := texts[id]
		w, ok := wavs[id]
		if !ok {
			return nil, lineError(textFile, t.line, ErrMissing, "utterance %q is not in %s", id, scpFile)
		}
		u := Utterance{ID: id, Path: resolve(dir, w.value), Text: t.value}
		if speakers != nil {
			s, ok := speakers[id]
			if !ok {
				return nil, lineError(textFile, t.line, ErrMissing, "utterance %q is not in %s", id, spkFile)
			}
			u.Speaker = s.value
		}
		utts = append(utts, u)
	}
	if err := firstExtra(scpFile, wavs, texts, textFile); err != nil {
		return nil, err
	}
	if err := firstExtra(spkFile, speakers, texts, textFile); err != nil {
		return nil, err
	}
	return utts, nil
}

// firstExtra reports the first line of file (by line number) whose id is
// not in the text table.
func firstExtra(file string, table, texts map[string]kaldiEntry, textFile string) error {
	extra, line := "", 0
	for id, e := range table {
		if _, ok := texts[id]; !ok && (line == 0 || e.line < line) {
			extra, line = id, e.line
		}
	}
	if line == 0 {
		return nil
	}
	return lineError(file, line, ErrMissing, "utterance %q has no transcript in %s", extra, textFile)
}

// readKaldiTable reads lines "id value…" into a map, with the ids in file
// order. The value is the rest of the line with surrounding white space
// trimmed; it may be empty unless needValue.
func readKaldiTable(file string, needValue bool) (map[string]kaldiEntry, []string, error) {
	table := map[string]kaldiEntry{}
	var order []string
	ids := seen{}
	err := eachLine(file, func(line int, text string) error {
		text = strings.TrimSpace(text)
		id, value := text, ""
		if i := strings.IndexAny(text, " \t"); i >= 0 {
			id, value = text[:i], strings.TrimSpace(text[i+1:])
		}
		if needValue && value == "" {
			return lineError(file, line, ErrSyntax, "want %q followed by a value", id)
		}
		if err := ids.add(id, file, line); err != nil {
			return err
		}
		table[id] = kaldiEntry{value, line}
		order = append(order, id)
		return nil
	})
	return table, order, err
}
