package speechdata

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Utterance is one manifest entry: an audio file and its transcript.
type Utterance struct {
	// ID names the utterance uniquely within a manifest: the Kaldi or
	// LibriSpeech utterance id, or for a TSV manifest its id column or
	// else the path as written in the manifest.
	ID string
	// Path is the audio file, absolute or relative to the process's
	// working directory (Read resolves relative manifest paths against
	// the manifest's directory).
	Path string
	// Text is the transcript as written, not normalized (see Normalize).
	Text string
	// Speaker identifies the speaker; empty when the manifest has none.
	Speaker string
}

// Errors that callers can test with errors.Is. Every error also names the
// file (and line, where there is one) it concerns.
var (
	// ErrSyntax marks a malformed manifest line.
	ErrSyntax = errors.New("malformed line")
	// ErrDuplicateID marks an utterance id (or TSV path) listed twice.
	ErrDuplicateID = errors.New("duplicate utterance id")
	// ErrMissing marks an entry whose counterpart is missing: a Kaldi
	// utterance in text but not in wav.scp (or the reverse, or not in
	// utt2spk), a LibriSpeech transcript line without its audio file.
	ErrMissing = errors.New("missing entry")
	// ErrEmpty marks a manifest without utterances.
	ErrEmpty = errors.New("no utterances")
	// ErrUnsupported marks a valid manifest feature this package does not
	// handle: Kaldi piped commands, archive offsets and segments.
	ErrUnsupported = errors.New("not supported")
	// ErrNotManifest marks a directory that is neither a Kaldi data
	// directory nor a LibriSpeech tree.
	ErrNotManifest = errors.New("not a manifest")
	// ErrUnwritable marks an utterance WriteTSV cannot write.
	ErrUnwritable = errors.New("cannot be written as TSV")
)

// Read loads a manifest, recognizing its kind from what path is:
//
//   - a file: a TSV manifest (see the package documentation);
//   - a directory holding wav.scp or text: a Kaldi data directory;
//   - another directory: a LibriSpeech-style tree, searched recursively
//     for *.trans.txt.
//
// Utterances come in manifest order (for LibriSpeech, transcript files in
// lexical path order). Read does not open the audio files of TSV and
// Kaldi manifests; a LibriSpeech transcript line must have its audio file
// beside it. An empty manifest, a duplicate id and any malformed line are
// errors naming the file and line.
func Read(path string) ([]Utterance, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("speechdata: %w", err)
	}
	var utts []Utterance
	switch {
	case !info.IsDir():
		utts, err = readTSV(path)
	case isKaldiDir(path):
		utts, err = readKaldi(path)
	default:
		utts, err = readLibriSpeech(path)
	}
	if err != nil {
		return nil, err
	}
	if len(utts) == 0 {
		return nil, fmt.Errorf("speechdata: %s: %w", path, ErrEmpty)
	}
	return utts, nil
}

// resolve returns p, or p joined to dir when p is relative.
func resolve(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// lineError formats an error at file:line wrapping a sentinel.
func lineError(file string, line int, sentinel error, format string, args ...any) error {
	return fmt.Errorf("speechdata: %s:%d: %w: %s", file, line, sentinel, fmt.Sprintf(format, args...))
}

// seen records where each id was first listed, to report duplicates.
type seen map[string]string

// add records id at where (file:line) or returns ErrDuplicateID naming
// both places.
func (s seen) add(id, file string, line int) error {
	where := fmt.Sprintf("%s:%d", file, line)
	if first, dup := s[id]; dup {
		return fmt.Errorf("speechdata: %s: %w %q, first at %s", where, ErrDuplicateID, id, first)
	}
	s[id] = where
	return nil
}
