package whisper

import (
	"unicode"
	"unicode/utf8"
)

// splitPieces calls emit with each piece of text that GPT-2's
// pre-tokenizer regular expression matches, in order:
//
//	's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//
// Go's regexp has no lookahead, so the alternatives are tried by hand,
// first match wins as in tiktoken's fancy_regex. The pieces cover the text
// exactly. \s is Unicode White_Space (unicode.IsSpace), \p{L} and \p{N}
// unicode.IsLetter and unicode.IsNumber; the optional prefix is the ASCII
// space only. A byte that is not valid UTF-8 counts as a symbol (neither
// space, letter nor number), so any byte string splits and round-trips.
//
// The whitespace rule \s+(?!\S) backtracks: a run of k whitespace runes
// followed by a non-space matches its first k−1 runes, leaving the last
// one to prefix the next word (" ?\p{L}+"); a run that ends the text
// matches whole; a single whitespace rune before a non-space falls
// through to \s+.
func splitPieces(text string, emit func(piece string)) {
	for p := 0; p < len(text); {
		n := matchPiece(text, p)
		emit(text[p : p+n])
		p += n
	}
}

// runeClass is a rune's class for the pre-tokenizer.
type runeClass uint8

const (
	classSpace runeClass = iota
	classLetter
	classNumber
	classOther
)

// classAt returns the class and width of the rune at text[p:].
func classAt(text string, p int) (runeClass, int) {
	c := text[p]
	if c < utf8.RuneSelf {
		switch {
		case c == ' ' || ('\t' <= c && c <= '\r'):
			return classSpace, 1
		case ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z'):
			return classLetter, 1
		case '0' <= c && c <= '9':
			return classNumber, 1
		}
		return classOther, 1
	}
	r, w := utf8.DecodeRuneInString(text[p:])
	switch {
	case r == utf8.RuneError && w == 1:
		return classOther, 1
	case unicode.IsSpace(r):
		return classSpace, w
	case unicode.IsLetter(r):
		return classLetter, w
	case unicode.IsNumber(r):
		return classNumber, w
	}
	return classOther, w
}

// contractions are the regular expression's first alternatives, in order.
var contractions = [...]string{"'s", "'t", "'re", "'ve", "'m", "'ll", "'d"}

// matchPiece returns the length in bytes of the piece starting at text[p:]
// (p < len(text)).
func matchPiece(text string, p int) int {
	rest := text[p:]
	if rest[0] == '\'' {
		for _, c := range contractions {
			if len(rest) >= len(c) && rest[:len(c)] == c {
				return len(c)
			}
		}
	}
	// " ?\p{L}+", " ?\p{N}+", " ?[^\s\p{L}\p{N}]+": an optional ASCII
	// space, then a run of one class (not space).
	start := p
	if rest[0] == ' ' && len(rest) > 1 {
		start = p + 1
	}
	if cls, _ := classAt(text, start); cls != classSpace {
		end := start
		for end < len(text) {
			c, w := classAt(text, end)
			if c != cls {
				break
			}
			end += w
		}
		return end - p
	}
	// A whitespace run from p: \s+(?!\S) and \s+.
	end, last, runes := p, p, 0
	for end < len(text) {
		c, w := classAt(text, end)
		if c != classSpace {
			break
		}
		last = end
		end += w
		runes++
	}
	if end == len(text) || runes == 1 {
		return end - p
	}
	return last - p
}
