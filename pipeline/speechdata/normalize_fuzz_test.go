package speechdata

import (
	"strings"
	"testing"
)

// FuzzNormalize checks the output invariants on any input: only Alphabet
// characters, single spaces between non-empty words, apostrophes only
// between letters, idempotence, and output at most 12 bytes per input
// byte (the longest expansion is "%" → "percent").
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"", "Hello, World!", "don’t 'tis dogs'", "1,000,000.25", "21st 1990s '80s 90's",
		"Café Straße ǅ ﬃ", "e\u0301\u00ad", "ＡＢＣ１２％＆", "a''b", "1,23,456", "7,777,777,777,777,777",
		"1.2.3.", "3.5th", "\xff\xfe", "' ' '", "12345678901234567890th",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		out := Normalize(in)
		if len(out) > 12*len(in) {
			t.Fatalf("Normalize(%q) is %d bytes from %d", in, len(out), len(in))
		}
		if out == "" {
			return
		}
		for i := 0; i < len(out); i++ {
			c := out[i]
			if !strings.ContainsRune(Alphabet, rune(c)) {
				t.Fatalf("Normalize(%q) = %q: byte %q outside Alphabet", in, out, c)
			}
			if c == '\'' && (i == 0 || i == len(out)-1 || !isLetter(out[i-1]) || !isLetter(out[i+1])) {
				t.Fatalf("Normalize(%q) = %q: apostrophe at %d not between letters", in, out, i)
			}
		}
		if strings.HasPrefix(out, " ") || strings.HasSuffix(out, " ") || strings.Contains(out, "  ") {
			t.Fatalf("Normalize(%q) = %q: spaces not single and inner", in, out)
		}
		if again := Normalize(out); again != out {
			t.Fatalf("Normalize(Normalize(%q)) = %q, want %q", in, again, out)
		}
	})
}
