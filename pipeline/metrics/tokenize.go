package metrics

import (
	"slices"
	"strings"
	"unicode"
)

// Tokenize splits a caption into the lower-case words the caption metrics
// compare, approximating what the COCO caption evaluation (pycocoevalcap)
// feeds its scorers: Stanford CoreNLP 3.4.1's PTBTokenizer with
// -lowerCase, followed by the removal of every token in its punctuation
// list
//
//	'' ' `` ` -LRB- -RRB- -LCB- -RCB- . ? ! , : - -- ... ;
//
// The rules, in order:
//
//   - Text is lower-cased (Unicode), typographic quotes become ASCII ones,
//     and white space, control and format characters separate tokens.
//   - Letters, numbers and combining marks form words.
//   - A hyphen, period, slash, ampersand or underscore between two letters
//     or digits stays inside the word ("t-shirt", "3.5", "and/or",
//     "at&t"); a comma or colon does so between two digits ("1,000",
//     "10:30"). Anywhere else these are punctuation, except the final
//     period of an acronym written with periods ("u.s.", "d.c.").
//   - Clitics ending a word are split off as PTB does: "man's" → "man
//     's", "don't" → "do n't", "can't" → "ca n't", "they're" → "they 're"
//     ('s 'm 'd 're 've 'll n't), and "cannot", "gonna", "gotta",
//     "wanna", "gimme", "lemme" become two words ("can not", "gon na",
//     …). Other apostrophes between letters stay ("o'clock"); one that
//     opens a word and no clitic is a quote, dropped.
//   - Punctuation in the list above (. , ? ! : ; quotes of every kind,
//     hyphens and dashes, brackets of every kind, "…") is dropped.
//   - Any other symbol ($ % # @ + = * …) is a one-character token, kept,
//     as PTB keeps it.
//
// Known differences from the Stanford tokenizer: PTB keeps the period of
// abbreviations and initials ("mr.", "st.", "u.") where Tokenize drops it
// ("mr", "st", "u"); PTB writes square brackets as -LSB-/-RSB-, which the
// COCO list does not remove, where Tokenize drops them; PTB's special
// cases for URLs, e-mail addresses, emoticons, fractions and signed
// numbers are not reproduced. Over the 35,000 Flickr8k captions, which
// were PTB-tokenized when the dataset was made, Tokenize and the
// dataset's tokens (after coco-caption's punctuation removal) differ in
// eleven words, listed in TestTokenizeFlickr8k.
//
// Tokenize is idempotent: Tokenize(strings.Join(Tokenize(s), " ")) equals
// Tokenize(s). Time and memory are linear in len(s).
func Tokenize(s string) []string {
	rs := []rune(strings.ToLower(s))
	for i, r := range rs {
		rs[i] = foldQuote(r)
	}
	rs = splitClitics(rs)
	var out []string
	var word []rune
	flush := func() {
		if len(word) > 0 {
			out = appendWord(out, string(word))
			word = word[:0]
		}
	}
	for i, r := range rs {
		switch {
		case isWordRune(r):
			word = append(word, r)
		case unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			flush()
		case r == '\'':
			// Kept before a letter, inside a word ("o'clock") or opening a
			// clitic ("'s"); quotes and plural possessives ("dogs'") are
			// dropped.
			if i+1 < len(rs) && unicode.IsLetter(rs[i+1]) {
				word = append(word, r)
			} else {
				flush()
			}
		case joins(r, rs, i, word):
			word = append(word, r)
		case r == '.' && isAcronym(word):
			word = append(word, r)
			flush()
		case isDroppedPunct(r):
			flush()
		default:
			flush()
			out = append(out, string(r))
		}
	}
	flush()
	return out
}

// clitics are the word endings PTB splits off as tokens of their own.
var clitics = [][]rune{[]rune("n't"), []rune("'ll"), []rune("'re"), []rune("'ve"), []rune("'s"), []rune("'m"), []rune("'d")}

// splitClitics inserts a space before every clitic that ends a word:
// preceded by a letter or digit, and followed by the end of the word or
// by another clitic that is split off ("man's" → "man 's", "don't" → "do
// n't", "x's's" → "x 's 's"). It works right to left so that chains of
// clitics split whole, and returns rs itself when there is nothing to
// split.
func splitClitics(rs []rune) []rune {
	var split []bool // split[i]: a space goes before rs[i]
	for i := len(rs) - 1; i > 0; i-- {
		if !isWordRune(rs[i-1]) {
			continue
		}
		k := cliticEnd(rs, i)
		if k < 0 || !(endsWord(rs, k) || split != nil && split[k]) {
			continue
		}
		if split == nil {
			split = make([]bool, len(rs)+1)
		}
		split[i] = true
	}
	if split == nil {
		return rs
	}
	out := make([]rune, 0, len(rs)+8)
	for i, r := range rs {
		if split[i] {
			out = append(out, ' ')
		}
		out = append(out, r)
	}
	return out
}

// cliticEnd returns the index after the clitic starting at rs[i], or −1.
func cliticEnd(rs []rune, i int) int {
	for _, c := range clitics {
		if k := i + len(c); k <= len(rs) && slices.Equal(rs[i:k], c) {
			return k
		}
	}
	return -1
}

// endsWord reports whether a word ends before rs[k]: at the end of the
// text, or at a rune that neither belongs to a word nor joins one (a
// hyphen before a letter does).
func endsWord(rs []rune, k int) bool {
	if k == len(rs) {
		return true
	}
	joined := strings.ContainsRune("-./&_", rs[k]) && k+1 < len(rs) && isWordRune(rs[k+1])
	return !isWordRune(rs[k]) && !joined
}

// isWordRune reports whether r is a letter, number or combining mark.
func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || unicode.IsMark(r)
}

// joins reports whether the connector r at rs[i] stays inside the word:
// hyphen, period, slash, ampersand and underscore between two word runes,
// comma and colon between two digits.
func joins(r rune, rs []rune, i int, word []rune) bool {
	if len(word) == 0 || i+1 >= len(rs) {
		return false
	}
	prev, next := word[len(word)-1], rs[i+1]
	switch r {
	case '-', '.', '/', '&', '_':
		return isWordRune(prev) && isWordRune(next)
	case ',', ':':
		return unicode.IsDigit(prev) && unicode.IsDigit(next)
	}
	return false
}

// isAcronym reports whether word is single letters joined by periods
// ("u.s", "d.c"), whose final period PTB keeps.
func isAcronym(word []rune) bool {
	if len(word) < 3 || len(word)%2 == 0 {
		return false
	}
	for i, r := range word {
		if i%2 == 0 && !unicode.IsLetter(r) || i%2 == 1 && r != '.' {
			return false
		}
	}
	return true
}

// foldQuote maps typographic apostrophes and quotes onto ASCII ones.
func foldQuote(r rune) rune {
	switch r {
	case '\u2018', '\u2019', '\u201a', '\u201b', '\u2032':
		return '\''
	case '\u201c', '\u201d', '\u201e', '\u201f', '\u2033', '\u00ab', '\u00bb':
		return '"'
	}
	return r
}

// isDroppedPunct reports whether r belongs to the punctuation the COCO
// evaluation removes after PTB tokenization: . , ? ! : ; quotes, hyphens
// and dashes, brackets (PTB's -LRB- -RRB- -LCB- -RCB-, and square ones)
// and the ellipsis.
func isDroppedPunct(r rune) bool {
	switch r {
	case '.', ',', '?', '!', ':', ';', '"', '`', '-', '(', ')', '[', ']', '{', '}',
		'\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2026':
		return true
	}
	return false
}

// splitWords are the words PTB tokenizes as two.
var splitWords = map[string][2]string{
	"cannot": {"can", "not"},
	"gonna":  {"gon", "na"},
	"gotta":  {"got", "ta"},
	"wanna":  {"wan", "na"},
	"gimme":  {"gim", "me"},
	"lemme":  {"lem", "me"},
}

// appendWord appends the word w (clitics already split off) to out: a
// word PTB splits in two becomes two, and a leading apostrophe that opens
// no clitic ("'hello'") is an opening quote and dropped.
func appendWord(out []string, w string) []string {
	if p, ok := splitWords[w]; ok {
		return append(out, p[0], p[1])
	}
	if w[0] == '\'' {
		for _, c := range clitics {
			if w == string(c) {
				return append(out, w)
			}
		}
		if w = strings.TrimLeft(w, "'"); w == "" {
			return out
		}
	}
	return append(out, w)
}
