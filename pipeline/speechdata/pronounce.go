package speechdata

import (
	"io"
	"strings"
)

// DefaultPronunciations is where Debian's pocketsphinx-en-us installs the
// CMU pronouncing dictionary (134k words, lower case, no stress marks).
const DefaultPronunciations = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"

// Pronunciations maps a word to its first pronunciation: a sequence of
// ARPAbet phones without stress marks ("hello" → HH AH L OW).
//
// It reads the CMU pronouncing dictionary format, one entry per line:
//
//	word PH PH …            the first pronunciation of word
//	word(2) PH PH …         an alternate: read, and ignored
//	;;; comment             a comment line (";;;" or "#")
//	word PH PH … # comment  a trailing comment is dropped
//
// Words are folded to lower case (the original cmudict writes them in
// upper case, pocketsphinx in lower case) and the stress digits 0, 1 and 2
// are stripped from vowels (AH0 → AH). The first pronunciation listed is
// the one kept: the unnumbered entry (normally the most common), or the
// first alternate listed when a word has no unnumbered entry.
type Pronunciations struct {
	words   map[string][]string
	primary map[string]bool // words whose unnumbered entry was read
}

// ReadPronunciations reads a CMU-format pronouncing dictionary. A line
// without phones, with a malformed alternate number or with a phone that
// is not one to three capital letters (after stripping stress) is an
// ErrSyntax naming the file and line.
func ReadPronunciations(path string) (*Pronunciations, error) {
	p := newPronunciations()
	return p, eachLine(path, p.addLine(path))
}

// ParsePronunciations is ReadPronunciations over r; errors name name.
func ParsePronunciations(name string, r io.Reader) (*Pronunciations, error) {
	p := newPronunciations()
	return p, scanLines(name, r, p.addLine(name))
}

func newPronunciations() *Pronunciations {
	return &Pronunciations{words: map[string][]string{}, primary: map[string]bool{}}
}

// addLine returns the line handler that adds one dictionary entry to p.
func (p *Pronunciations) addLine(path string) func(int, string) error {
	return func(line int, text string) error {
		if t := strings.TrimSpace(text); strings.HasPrefix(t, ";;;") || strings.HasPrefix(t, "#") {
			return nil
		}
		if before, _, ok := strings.Cut(text, "#"); ok {
			text = before
		}
		fields := strings.Fields(text)
		if len(fields) < 2 {
			return lineError(path, line, ErrSyntax, "%q: want a word and its phones", text)
		}
		word := strings.ToLower(fields[0])
		alternate := false
		if open := strings.IndexByte(word, '('); open > 0 && strings.HasSuffix(word, ")") {
			n := word[open+1 : len(word)-1]
			if n == "" || strings.Trim(n, "0123456789") != "" {
				return lineError(path, line, ErrSyntax, "%q: want an alternate numbered word(N)", fields[0])
			}
			word, alternate = word[:open], true
		}
		phones := make([]string, len(fields)-1)
		for i, ph := range fields[1:] {
			ph = strings.TrimRight(ph, "012")
			if !isPhone(ph) {
				return lineError(path, line, ErrSyntax, "word %q: phone %q is not an ARPAbet phone (1–3 capital letters, optional stress 0–2)", word, fields[i+1])
			}
			phones[i] = ph
		}
		if _, seen := p.words[word]; !seen || !alternate && !p.primary[word] {
			p.words[word] = phones
		}
		if !alternate {
			p.primary[word] = true
		}
		return nil
	}
}

// isPhone reports whether s looks like an ARPAbet phone: 1–3 capitals.
func isPhone(s string) bool {
	if len(s) < 1 || len(s) > 3 {
		return false
	}
	for _, c := range []byte(s) {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}

// Len returns the number of words with a pronunciation.
func (p *Pronunciations) Len() int { return len(p.words) }

// Word returns the first pronunciation of a lower-case word, or false.
// The slice is shared: do not modify it.
func (p *Pronunciations) Word(word string) ([]string, bool) {
	phones, ok := p.words[word]
	return phones, ok
}

// Transcript returns the phones of a normalized transcript (Normalize's
// output: lower-case words separated by spaces), the first pronunciation
// of each word in turn, with no word-boundary symbol. When a word has no
// pronunciation it returns nil and that word.
func (p *Pronunciations) Transcript(norm string) (phones []string, missing string) {
	for _, w := range strings.Fields(norm) {
		ph, ok := p.words[w]
		if !ok {
			return nil, w
		}
		phones = append(phones, ph...)
	}
	return phones, ""
}
