package speechdata

import (
	"strings"
	"unicode"
)

// Alphabet is the 28 characters Normalize can output: the letters a–z,
// the apostrophe and the space. The ASR vocabulary is built from it.
const Alphabet = "abcdefghijklmnopqrstuvwxyz' "

// Normalize maps a transcript to the form used as training target and for
// scoring: lower-case words of Alphabet separated by single spaces, no
// leading or trailing space. It is idempotent, and the same rules apply
// to references and hypotheses.
//
//	rule                                input                  output
//	lower case; punctuation → boundary  "Hello, World!"        "hello world"
//	hyphens, dashes, colons, slashes    "x-ray — 3:30"         "x ray three thirty"
//	diacritics removed                  "Café naïve"           "cafe naive"
//	special letters, ligatures spelled  "Straße Æsir ﬁx"       "strasse aesir fix"
//	combining marks dropped             "cafe\u0301"           "cafe"
//	typographic apostrophes → '         "don’t"                "don't"
//	apostrophes kept between letters    "rock'n'roll o'clock"  "rock'n'roll o'clock"
//	  and dropped elsewhere             "'tis dogs' 'quoted'"  "tis dogs quoted"
//	cardinals, American (no "and")      "42 101"               "forty two one hundred one"
//	thousands separators                "1,000,000"            "one million"
//	1100–1999 read as years             "1999 1905 1900"       "nineteen ninety nine nineteen oh five nineteen hundred"
//	other four-digit numbers            "2024 1099"            "two thousand twenty four one thousand ninety nine"
//	decimals, digit by digit            "3.5 0.25"             "three point five zero point two five"
//	ordinals (st, nd, rd, th)           "21st 2nd 100th"       "twenty first second one hundredth"
//	decades (s, 's)                     "1990s '80s 90's"      "nineteen nineties eighties nineties"
//	leading zero: digit by digit        "007"                  "zero zero seven"
//	digits split from letters           "mp3 4x4"              "mp three four x four"
//	percent, ampersand                  "50% AT&T"             "fifty percent at and t"
//	signs, currency, symbols, scripts   "$5 -3 x² Привет"      "five three x"
//
// In detail, each character is first lower-cased (unicode.ToLower) and
// then read as:
//
//   - a–z and 0–9, also in their fullwidth forms: themselves;
//   - a Latin letter with diacritics or a ligature (Latin-1 Supplement,
//     Latin Extended-A and Additional, ß æ ø þ ð ł œ ı ŋ and others, the
//     ﬁ ﬂ ﬀ ligatures): its ASCII letters;
//   - ' ’ ‘ ʼ ` ´ ′: an apostrophe;
//   - % and &: the words "percent" and "and";
//   - a combining mark or an invisible format character (soft hyphen,
//     zero-width joiner, byte-order mark): nothing;
//   - anything else (punctuation, symbols, white space, other scripts,
//     other digits such as ² or ٣, invalid UTF-8): a word boundary.
//
// Numbers are then spelled out. A number is a run of digits, optionally
// with thousands groups (",ddd" after a first group of one to three
// digits) and a decimal part (".d…" right after). Integers are read as
// cardinals up to 18 digits (scales up to quadrillion); four-digit
// integers from 1100 to 1999 without a thousands comma are read as years,
// in pairs; integers with a leading zero or more than 18 digits are read
// digit by digit. Decimal digits are read one by one after "point".
// Letters right after an integer make it an ordinal when they are st, nd,
// rd or th (an ordinal reads as a cardinal, never as a year), and a plural
// when they are s or 's (a plural keeps the year reading: "1990s" is
// "nineteen nineties"); other letters start a new word. Signs and
// currency symbols are not read. Ordinals and
// plurals change the last number word: first, second, third, fifth,
// eighth, ninth, twelfth, -y → -ieth, otherwise +th; -y → -ies, six →
// sixes, otherwise +s.
//
// Finally, within each word a run of apostrophes is kept as one
// apostrophe only when it stands between two letters: contractions and
// possessives ("don't", "o'clock", "dog's") keep theirs; leading and
// trailing ones ("'tis", plural possessive "dogs'", quotes) are dropped,
// since they are not pronounced.
func Normalize(text string) string {
	pre := make([]byte, 0, len(text)+1)
	for _, r := range text {
		s, ok := fold(unicode.ToLower(r))
		switch {
		case !ok:
			pre = append(pre, ' ')
		case s == "%":
			pre = append(pre, " percent "...)
		case s == "&":
			pre = append(pre, " and "...)
		default:
			pre = append(pre, s...)
		}
	}
	var out words
	out.Grow(len(pre) + len(pre)/2)
	for start := 0; start < len(pre); {
		end := start
		for end < len(pre) && pre[end] != ' ' {
			end++
		}
		out.chunk(pre[start:end])
		start = end + 1
	}
	return out.String()
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// words builds Normalize's output one word at a time.
type words struct {
	strings.Builder
	numbers []string // scratch for appendNumber
}

// add writes a word, after a space unless it is the first.
func (w *words) add(word string) {
	if w.Len() > 0 {
		w.WriteByte(' ')
	}
	w.WriteString(word)
}

// chunk writes the words of a run of a–z, 0–9, ' . and , without white
// space.
func (w *words) chunk(chunk []byte) {
	start := 0 // of the pending letters and apostrophes
	for i := 0; i < len(chunk); {
		switch c := chunk[i]; {
		case isLetter(c) || c == '\'':
			i++
		case isDigit(c):
			w.letters(chunk[start:i])
			w.numbers, i = appendNumber(w.numbers[:0], chunk, i)
			for _, n := range w.numbers {
				w.add(n)
			}
			start = i
		default: // '.' or ',' outside a number
			w.letters(chunk[start:i])
			i++
			start = i
		}
	}
	w.letters(chunk[start:])
}

// letters writes a word of letters and apostrophes, each run of
// apostrophes collapsed to one and kept only between two letters; nothing
// when no letter is left.
func (w *words) letters(word []byte) {
	first := true
	for k := 0; k < len(word); k++ {
		c := word[k]
		if c == '\'' {
			for k+1 < len(word) && word[k+1] == '\'' {
				k++
			}
			if !first && k+1 < len(word) {
				w.WriteByte('\'')
			}
			continue
		}
		if first {
			if w.Len() > 0 {
				w.WriteByte(' ')
			}
			first = false
		}
		w.WriteByte(c)
	}
}

// appendNumber reads the number starting at s[i] (a digit) with its
// ordinal or plural suffix, appends its words and returns the index after
// what it consumed.
func appendNumber(words []string, s []byte, i int) ([]string, int) {
	start := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	digits := string(s[start:i])
	grouped := false
	if len(digits) <= 3 {
		for i+3 < len(s) && s[i] == ',' && isDigit(s[i+1]) && isDigit(s[i+2]) && isDigit(s[i+3]) &&
			(i+4 == len(s) || !isDigit(s[i+4])) {
			digits += string(s[i+1 : i+4])
			i += 4
			grouped = true
		}
	}
	var frac string
	if i+1 < len(s) && s[i] == '.' && isDigit(s[i+1]) {
		j := i + 1
		for j < len(s) && isDigit(s[j]) {
			j++
		}
		frac, i = string(s[i+1:j]), j
	}

	j := i
	for j < len(s) && isLetter(s[j]) {
		j++
	}
	const (
		cardinalForm = iota
		ordinalForm
		pluralForm
	)
	form := cardinalForm
	switch suf := string(s[i:j]); {
	case frac != "":
	case suf == "st" || suf == "nd" || suf == "rd" || suf == "th":
		form, i = ordinalForm, j
	case suf == "s":
		form, i = pluralForm, j
	case suf == "" && i+1 < len(s) && s[i] == '\'' && s[i+1] == 's' && (i+2 == len(s) || !isLetter(s[i+2])):
		form, i = pluralForm, i+2
	}

	words = integerWords(words, digits, !grouped && frac == "" && form != ordinalForm)
	if frac != "" {
		words = append(words, "point")
		words = digitWords(words, frac)
	}
	switch last := len(words) - 1; form {
	case ordinalForm:
		words[last] = ordinal(words[last])
	case pluralForm:
		words[last] = plural(words[last])
	}
	return words, i
}
