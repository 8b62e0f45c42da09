package whisper

import (
	"strings"
	"unicode/utf8"
)

// decodeUTF8Replace returns b as a string with every ill-formed sequence
// replaced by U+FFFD exactly as Python's bytes.decode("utf-8",
// errors="replace") does (tiktoken's decode): one U+FFFD per maximal
// subpart, the longest prefix of a well-formed sequence (Unicode §3.9,
// "U+FFFD Substitution of Maximal Subparts"), or per single byte that
// starts none. Go's strings.ToValidUTF8 differs: it collapses runs.
func decodeUTF8Replace(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	s.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		r, w := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || w > 1 {
			s.Write(b[i : i+w])
			i += w
			continue
		}
		s.WriteRune(utf8.RuneError)
		i += maximalSubpart(b[i:])
	}
	return s.String()
}

// maximalSubpart returns the length (≥ 1) of the longest prefix of b that
// begins a well-formed UTF-8 sequence (Unicode Table 3-7), for b whose
// first sequence is ill-formed.
func maximalSubpart(b []byte) int {
	c := b[0]
	var need int         // continuation bytes a sequence led by c needs
	lo, hi := 0x80, 0xBF // the range the second byte must fall in
	switch {
	case 0xC2 <= c && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case 0xE1 <= c && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case 0xF1 <= c && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		x := int(b[n])
		if n == 1 && (x < lo || x > hi) || n > 1 && (x < 0x80 || x > 0xBF) {
			break
		}
	}
	return n
}
