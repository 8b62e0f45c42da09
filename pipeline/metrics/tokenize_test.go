package metrics

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/attend-go/attend/internal/shareddata"
)

func TestTokenize(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"empty", "", nil},
		{"white space only", " \t\n\r ", nil},
		{"punctuation only", ". , ! ? ; : ... -- - ' \" ` ( ) [ ] { }", nil},
		{"lower-cased, final period dropped", "A Dog runs.", []string{"a", "dog", "runs"}},
		{"Flickr8k style", "A child in a pink dress is climbing up a set of stairs in an entry way .",
			[]string{"a", "child", "in", "a", "pink", "dress", "is", "climbing", "up", "a", "set", "of", "stairs", "in", "an", "entry", "way"}},
		{"commas and quotes", `Two dogs, one "big", play!`, []string{"two", "dogs", "one", "big", "play"}},
		{"typographic quotes", "a “big” dog’s bone", []string{"a", "big", "dog", "'s", "bone"}},
		{"possessive clitic", "the man's hat", []string{"the", "man", "'s", "hat"}},
		{"pre-split clitic", "the man 's hat", []string{"the", "man", "'s", "hat"}},
		{"negation", "don't can't won't isn't", []string{"do", "n't", "ca", "n't", "wo", "n't", "is", "n't"}},
		{"pre-split negation", "do n't", []string{"do", "n't"}},
		{"other clitics", "they're we've i'll he'd i'm", []string{"they", "'re", "we", "'ve", "i", "'ll", "he", "'d", "i", "'m"}},
		{"plural possessive", "the dogs' ball", []string{"the", "dogs", "ball"}},
		{"inner apostrophe kept", "at six o'clock", []string{"at", "six", "o'clock"}},
		{"single quotes dropped", "a 'happy' face", []string{"a", "happy", "face"}},
		{"PTB two-word forms", "Cannot gonna gotta wanna", []string{"can", "not", "gon", "na", "got", "ta", "wan", "na"}},
		{"hyphenated word", "a t-shirt and black-and-white shoes", []string{"a", "t-shirt", "and", "black-and-white", "shoes"}},
		{"dashes", "a dog - running -- fast — now", []string{"a", "dog", "running", "fast", "now"}},
		{"numbers", "3.5 km, 1,000 people at 10:30", []string{"3.5", "km", "1,000", "people", "at", "10:30"}},
		{"comma between words", "red,blue", []string{"red", "blue"}},
		{"acronyms keep their period", "in Washington D.C. near an R.V. today.", []string{"in", "washington", "d.c.", "near", "an", "r.v.", "today"}},
		{"abbreviation period dropped", "Mr. Smith", []string{"mr", "smith"}},
		{"web address", "see avrovulcan.com now", []string{"see", "avrovulcan.com", "now"}},
		{"brackets", "a jersey (#7) [red] {x}", []string{"a", "jersey", "#", "7", "red", "x"}},
		{"symbols kept as tokens", "$5 for 50% & more", []string{"$", "5", "for", "50", "%", "&", "more"}},
		{"joined symbols", "AT&T and/or snake_case", []string{"at&t", "and/or", "snake_case"}},
		{"ellipsis", "wait… what...", []string{"wait", "what"}},
		{"unicode letters", "Ein Mädchen läuft ÜBER die Straße", []string{"ein", "mädchen", "läuft", "über", "die", "straße"}},
		{"combining marks", "cafe\u0301 noir", []string{"cafe\u0301", "noir"}},
		{"CJK", "一只狗 在跑", []string{"一只狗", "在跑"}},
		{"zero-width space separates", "a\u200bdog", []string{"a", "dog"}},
		{"emoji is a symbol token", "a dog🐕", []string{"a", "dog", "🐕"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Tokenize(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Tokenize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			checkTokens(t, tt.in, got)
		})
	}
}

// checkTokens checks the invariants of Tokenize's output for input in:
// tokens are non-empty, lower-case, free of white space and of the
// punctuation COCO removes, and tokenizing them again changes nothing.
func checkTokens(t *testing.T, in string, toks []string) {
	t.Helper()
	for _, w := range toks {
		if w == "" {
			t.Fatalf("Tokenize(%q) = %q: empty token", in, toks)
		}
		if strings.ContainsFunc(w, unicode.IsSpace) {
			t.Fatalf("Tokenize(%q) = %q: token %q holds white space", in, toks, w)
		}
		if slices.Contains(cocoPunct, w) || strings.Trim(w, ".,?!:;-'\"`()[]{}") == "" {
			t.Fatalf("Tokenize(%q) = %q: token %q is punctuation", in, toks, w)
		}
		if strings.ToLower(w) != w {
			t.Fatalf("Tokenize(%q) = %q: token %q is not lower-case", in, toks, w)
		}
	}
	if again := Tokenize(strings.Join(toks, " ")); !slices.Equal(again, toks) {
		t.Fatalf("Tokenize is not idempotent on %q: %q, then %q", in, toks, again)
	}
}

// TestTokenizeLongWords runs words made of thousands of clitics and
// connectors, on which splitting clitics by re-tokenizing each prefix
// took quadratic time (found by FuzzTokenize).
func TestTokenizeLongWords(t *testing.T) {
	const n = 20000
	tests := []struct {
		in   string
		want int
	}{
		{"a" + strings.Repeat("'s", n), 1 + n},
		{"a" + strings.Repeat("&n't", n), 1}, // one word joined by "&"
		{strings.Repeat("a-", n) + "a", 1},   // one hyphenated word
		{strings.Repeat("u.", n), 1},         // one acronym
		{strings.Repeat("'", n) + "x", 1},    // quotes
		{strings.Repeat("don't ", n), 2 * n}, // "do" "n't"
	}
	for _, tt := range tests {
		if got := Tokenize(tt.in); len(got) != tt.want {
			t.Errorf("Tokenize(%.20q…) gave %d tokens, want %d", tt.in, len(got), tt.want)
		}
	}
}

func FuzzTokenize(f *testing.F) {
	for _, s := range []string{
		"", "A dog's ball.", "don't stop", "u.s.a. d.c.", "3.5 1,000 10:30",
		"a t-shirt", "o'clock 'quoted' dogs'", "$5 & 50%", "cannot", "“x” ‘y’",
		"x's's", "''s", "n't", "a-'s", ".-.", "é\u0301", "\xff\xfe", "İstanbul", "0&n't",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkTokens(t, s, Tokenize(s))
	})
}

// TestTokenizeFlickr8k runs Tokenize over the 35,000 Flickr8k captions,
// which were PTB-tokenized when the dataset was made, and compares the
// result with what coco-caption would make of them: the file's tokens
// lower-cased, with the characters PTB rewrites as punctuation tokens
// (double quotes as “ and ”, round brackets as -LRB- -RRB-, a
// possessive's final apostrophe split off) removed along with the other
// tokens of coco-caption's list. Only the known differences remain.
func TestTokenizeFlickr8k(t *testing.T) {
	caps := flickr8kCaptions(t, shareddata.Path(t, "flickr8k"))
	known := map[string][]string{
		// PTB leaves these alone; Tokenize splits or trims them.
		"'s-eye-view": {"s-eye-view"},
		"'n'":         {"n"},
		"rif=ding":    {"rif", "=", "ding"},
		"u.":          {"u"},
		"p.":          {"p"},
		"mr.":         {"mr"},
		"jr.":         {"jr"},
		// The dataset's tokenization left these, which PTB splits too.
		"cannot":    {"can", "not"},
		"bro!":      {"bro"},
		"-ependent": {"ependent"},
		"'slide":    {"slide"},
	}
	n, differ := 0, 0
	for _, cs := range caps {
		for _, c := range cs {
			n++
			var want []string
			for _, w := range strings.Fields(strings.ToLower(c)) {
				if len(w) > 2 && strings.HasSuffix(w, "s'") {
					w = strings.TrimSuffix(w, "'")
				}
				switch {
				case w == `"` || w == "(" || w == ")" || slices.Contains(cocoPunct, w):
				case known[w] != nil:
					want = append(want, known[w]...)
				default:
					want = append(want, w)
				}
			}
			if got := Tokenize(c); !slices.Equal(got, want) {
				differ++
				if differ <= 10 {
					t.Errorf("Tokenize(%q)\n = %q\nwant %q", c, got, want)
				}
			}
		}
	}
	if n < 35000 {
		t.Errorf("read %d captions, want at least 35,000", n)
	}
	if differ > 0 {
		t.Errorf("%d of %d captions tokenized differently", differ, n)
	}
}
