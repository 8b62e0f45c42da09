package captiondata

import (
	"strings"
	"unicode"
)

// Tokenize splits a caption into the lower-case words the caption models
// are trained on:
//
//   - letters are lower-cased; letters and digits make up the words;
//   - apostrophes (' and ’) are dropped, so "dog's" gives "dogs" and
//     "don't" gives "dont", as in the widely used neuraltalk2 and
//     Karpathy preprocessing;
//   - every other character (white space, punctuation, symbols) ends a
//     word, so "t-shirt" gives "t", "shirt" and "a dog ." gives "a", "dog".
//
// It returns nil for a caption with no letters or digits.
func Tokenize(caption string) []string {
	var words []string
	var b strings.Builder
	flush := func() {
		if b.Len() > 0 {
			words = append(words, b.String())
			b.Reset()
		}
	}
	for _, r := range caption {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(unicode.ToLower(r))
		case r == '\'' || r == '’':
		default:
			flush()
		}
	}
	flush()
	return words
}
