package metrics

import (
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
//   - Clitics are split off as PTB does: "man's" → "man 's", "don't" →
//     "do n't", "can't" → "ca n't", "they're" → "they 're" ('s 'm 'd 're
//     've 'll n't), and "cannot", "gonna", "gotta", "wanna", "gimme",
//     "lemme" become two words ("can not", "gon na", …). Other
//     apostrophes between letters stay ("o'clock").
//   - Punctuation in the list above (. , ? ! : ; quotes of every kind,
//     hyphens and dashes, brackets of every kind, "…") is dropped.
//   - Any other symbol ($ % # @ + = * …) is a one-character token, kept,
//     as PTB keeps it.
//
// Known differences from the Stanford tokenizer: PTB keeps the period of
// abbreviations and initials ("mr.", "st.", "u.") where Tokenize drops it
// ("mr", "st", "u");
// PTB writes square brackets as -LSB-/-RSB-, which the COCO list does not
// remove, where Tokenize drops them; PTB's special cases for URLs, e-mail
// addresses, emoticons, fractions ("1\u00a01/2"), signed numbers and
// words with several clitics are not reproduced. On Flickr8k and COCO
// captions, which are plain sentences, these cases are rare.
//
// Tokenize is idempotent: Tokenize(strings.Join(Tokenize(s), " ")) equals
// Tokenize(s).
func Tokenize(s string) []string {
	var out []string
	rs := []rune(strings.ToLower(s))
	var word []rune
	flush := func() {
		if len(word) > 0 {
			out = appendWord(out, string(word))
			word = word[:0]
		}
	}
	for i, r := range rs {
		r = foldQuote(r)
		switch {
		case isWordRune(r):
			word = append(word, r)
		case unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
			flush()
		case r == '\'':
			// Kept before a letter, inside a word ("o'clock", "man's") or
			// opening a clitic ("'s"); quotes and plural possessives
			// ("dogs'") are dropped.
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

// clitics are the endings PTB splits off a word, longest first within
// each length; "n't" is handled apart because it takes the n with it.
var clitics = []string{"'ll", "'re", "'ve", "'s", "'m", "'d"}

// splitWords are the words PTB tokenizes as two.
var splitWords = map[string][2]string{
	"cannot": {"can", "not"},
	"gonna":  {"gon", "na"},
	"gotta":  {"got", "ta"},
	"wanna":  {"wan", "na"},
	"gimme":  {"gim", "me"},
	"lemme":  {"lem", "me"},
}

// appendWord appends w to out, split into word and clitic where PTB
// splits it.
func appendWord(out []string, w string) []string {
	if p, ok := splitWords[w]; ok {
		return append(out, p[0], p[1])
	}
	if !strings.ContainsRune(w, '\'') {
		return append(out, w)
	}
	if strings.HasSuffix(w, "n't") && len(w) > len("n't") {
		return append(append(out, splitPrefix(w[:len(w)-len("n't")])...), "n't")
	}
	for _, c := range clitics {
		if w == c {
			return append(out, w)
		}
		if strings.HasSuffix(w, c) {
			return append(append(out, splitPrefix(w[:len(w)-len(c)])...), c)
		}
	}
	if w == "n't" {
		return append(out, w)
	}
	// A leading apostrophe that opens no clitic is an opening quote.
	w = strings.TrimLeft(w, "'")
	if w == "" {
		return out
	}
	return append(out, w)
}

// splitPrefix tokenizes the part of a word before a clitic: it may end
// in a connector that no longer joins anything ("0&" of "0&n't"), hold
// another clitic or start with a quote.
func splitPrefix(p string) []string {
	return Tokenize(p)
}
