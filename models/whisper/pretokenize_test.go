package whisper

import (
	"slices"
	"strings"
	"testing"
)

// TestSplitPieces checks the hand-written pre-tokenizer against what
// GPT-2's regular expression (with its lookahead) matches; the expected
// pieces were produced by Python's regex module, which implements \s,
// \p{L} and \p{N} as tiktoken's fancy_regex does.
func TestSplitPieces(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		{"Hello world", []string{"Hello", " world"}},
		{" Hello world", []string{" Hello", " world"}},
		{"  leading", []string{" ", " leading"}},
		{"trailing  ", []string{"trailing", "  "}},
		{"a  b", []string{"a", " ", " b"}},
		{"a   b", []string{"a", "  ", " b"}},
		{"a\nb", []string{"a", "\n", "b"}},
		{"a \nb", []string{"a", " ", "\n", "b"}},
		{"a\n\nb", []string{"a", "\n", "\n", "b"}},
		{"a \n b", []string{"a", " \n", " b"}},
		{"text\n", []string{"text", "\n"}},
		{"text\n\n", []string{"text", "\n\n"}},
		{"\n\n\nx", []string{"\n\n", "\n", "x"}},
		{" ", []string{" "}},
		{"  ", []string{"  "}},
		{"\t\tx", []string{"\t", "\t", "x"}},
		{"x\t", []string{"x", "\t"}},
		{"don't", []string{"don", "'t"}},
		{"I'll've", []string{"I", "'ll", "'ve"}},
		{"'sup", []string{"'s", "up"}},
		{"''s", []string{"''", "s"}},
		{" 's", []string{" '", "s"}},
		{"!'s", []string{"!'", "s"}},
		{"it's 'twas", []string{"it", "'s", " '", "twas"}},
		{"He's", []string{"He", "'s"}},
		{"HE'S", []string{"HE", "'", "S"}},
		{"3.14", []string{"3", ".", "14"}},
		{"abc123def", []string{"abc", "123", "def"}},
		{" 42", []string{" 42"}},
		{"٣٤٥ ⅷ", []string{"٣٤٥", " ⅷ"}},
		{"a\u00a0b", []string{"a", "\u00a0", "b"}},
		{"a\u00a0\u00a0b", []string{"a", "\u00a0", "\u00a0", "b"}},
		{"x\u3000 y", []string{"x", "\u3000", " y"}},
		{"中文 日本語", []string{"中文", " 日本語"}},
		{"emoji 😀😀 ok", []string{"emoji", " 😀😀", " ok"}},
		{"e\u0301té", []string{"e", "\u0301", "té"}},
		{"$$$ money", []string{"$$$", " money"}},
		{" ?!", []string{" ?!"}},
		{"a - b", []string{"a", " -", " b"}},
		{"x\r\ny", []string{"x", "\r", "\n", "y"}},
		{"   ", []string{"   "}},
		{"tab\t end", []string{"tab", "\t", " end"}},
		{"a\u2028b", []string{"a", "\u2028", "b"}},
		{"café", []string{"café"}},
		{"\u0085x", []string{"\u0085", "x"}},
		{"a\x1cb", []string{"a", "\x1c", "b"}},
		{"", []string{}},
		{"x\u00a0 \u00a0y", []string{"x", "\u00a0 ", "\u00a0", "y"}},
		{" \u00a0y", []string{" ", "\u00a0", "y"}},
		{"  \n  \n", []string{"  \n  \n"}},
		{"\n \n x", []string{"\n \n", " x"}},
		{"ab\u00ad", []string{"ab", "\u00ad"}},
	} {
		var got []string
		splitPieces(tc.text, func(p string) { got = append(got, p) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("splitPieces(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestSplitPiecesCoversText checks that the pieces of arbitrary bytes,
// invalid UTF-8 included, are non-empty and concatenate to the input.
func TestSplitPiecesCoversText(t *testing.T) {
	for _, text := range []string{"\xff\xfe a\x80b", "\xe4\xb8 \xe4\xb8\xad", "  \xc3", strings.Repeat("a b  c\n", 50)} {
		var b strings.Builder
		splitPieces(text, func(p string) {
			if p == "" {
				t.Fatalf("splitPieces(%q) emitted an empty piece", text)
			}
			b.WriteString(p)
		})
		if b.String() != text {
			t.Errorf("splitPieces(%q) pieces join to %q", text, b.String())
		}
	}
}
