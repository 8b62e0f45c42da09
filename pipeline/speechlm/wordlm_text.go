package speechlm

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/attend-go/attend/pipeline/speechdata"
)

// ReadLMText reads the sentences of a language-model text, each
// normalized as transcripts are (speechdata.Normalize: lower case,
// numbers spelled out, punctuation removed) and split into words; lines
// that normalize to nothing are skipped. path is
//
//   - a directory: a Kaldi or LibriSpeech manifest (speechdata.Read),
//     whose transcripts are the sentences;
//   - a file whose first non-blank line has a tab: a TSV manifest (the
//     one "asr train" reads), its text column;
//   - any other file: plain text, one sentence per line.
//
// A file without any sentence is an error naming it.
func ReadLMText(path string) ([][]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var lines []string
	if info.IsDir() || firstLineHasTab(path) {
		utts, err := speechdata.Read(path)
		if err != nil {
			return nil, err
		}
		for _, u := range utts {
			lines = append(lines, u.Text)
		}
	} else if lines, err = readLines(path); err != nil {
		return nil, err
	}
	var out [][]string
	for _, l := range lines {
		if s := speechdata.Normalize(l); s != "" {
			out = append(out, strings.Fields(s))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no text (no line has a word after normalization)", path)
	}
	return out, nil
}

// firstLineHasTab reports whether the first non-blank line of the file
// holds a tab, as a TSV manifest's does.
func firstLineHasTab(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		if line := bytes.TrimSpace(sc.Bytes()); len(line) > 0 {
			return bytes.IndexByte(sc.Bytes(), '\t') >= 0
		}
	}
	return false
}

// readLines returns the lines of a text file.
func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return lines, nil
}

func toLower(s string) string { return strings.ToLower(s) }
