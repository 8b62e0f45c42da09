package whisper

import "strings"

// pyStrip is Python's str.strip(): it removes leading and trailing white
// space as Python's str.isspace defines it (Go's unicode.IsSpace plus the
// separators U+001C…U+001F).
func pyStrip(s string) string {
	return strings.TrimFunc(s, isPySpace)
}

func isPySpace(r rune) bool {
	switch {
	case r >= 0x1c && r <= 0x1f:
		return true
	case r == 0x85 || r == 0xa0:
		return true
	}
	return strings.ContainsRune("\t\n\v\f\r \u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000", r)
}
