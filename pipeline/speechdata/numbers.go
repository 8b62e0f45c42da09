package speechdata

import "strings"

var (
	smallNumbers = [...]string{
		"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
		"ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
		"seventeen", "eighteen", "nineteen",
	}
	tensNumbers = [...]string{
		2: "twenty", 3: "thirty", 4: "forty", 5: "fifty",
		6: "sixty", 7: "seventy", 8: "eighty", 9: "ninety",
	}
	// scales name the powers of 1000 up to 10^15; integers of more than
	// maxCardinalDigits digits are read digit by digit.
	scales = [...]string{"", "thousand", "million", "billion", "trillion", "quadrillion"}
)

const maxCardinalDigits = 3 * len(scales)

// cardinal appends the words of n < 10^18 in American style, without
// "and": 101 is "one hundred one", 1234 "one thousand two hundred thirty
// four".
func cardinal(words []string, n uint64) []string {
	if n == 0 {
		return append(words, "zero")
	}
	var groups [len(scales)]uint64
	top := 0
	for i := 0; n > 0; i++ {
		groups[i] = n % 1000
		n /= 1000
		top = i
	}
	for i := top; i >= 0; i-- {
		if groups[i] == 0 {
			continue
		}
		words = below1000(words, groups[i])
		if scales[i] != "" {
			words = append(words, scales[i])
		}
	}
	return words
}

// below1000 appends the words of 0 < n < 1000.
func below1000(words []string, n uint64) []string {
	if n >= 100 {
		words = append(words, smallNumbers[n/100], "hundred")
		n %= 100
	}
	return below100(words, n)
}

// below100 appends the words of n < 100; nothing for 0.
func below100(words []string, n uint64) []string {
	switch {
	case n == 0:
		return words
	case n < 20:
		return append(words, smallNumbers[n])
	}
	words = append(words, tensNumbers[n/10])
	if n%10 != 0 {
		words = append(words, smallNumbers[n%10])
	}
	return words
}

// year appends the words of a year 1100 ≤ n ≤ 1999 read in pairs:
// "nineteen ninety nine", "nineteen oh five", "nineteen hundred".
func year(words []string, n uint64) []string {
	words = below100(words, n/100)
	switch lo := n % 100; {
	case lo == 0:
		return append(words, "hundred")
	case lo < 10:
		return append(words, "oh", smallNumbers[lo])
	default:
		return below100(words, lo)
	}
}

// digitWords appends one word per digit of digits.
func digitWords(words []string, digits string) []string {
	for _, d := range digits {
		words = append(words, smallNumbers[d-'0'])
	}
	return words
}

// integerWords appends the reading of a string of ASCII digits: digit by
// digit with a leading zero ("007") or beyond maxCardinalDigits digits, as
// a year for four digits from 1100 to 1999 when asYear, otherwise as a
// cardinal.
func integerWords(words []string, digits string, asYear bool) []string {
	if len(digits) > maxCardinalDigits || len(digits) > 1 && digits[0] == '0' {
		return digitWords(words, digits)
	}
	var n uint64
	for _, d := range digits {
		n = 10*n + uint64(d-'0')
	}
	if asYear && len(digits) == 4 && n >= 1100 && n <= 1999 {
		return year(words, n)
	}
	return cardinal(words, n)
}

// irregularOrdinals are the number words whose ordinal is not the word
// plus "th" (or "y" → "ieth").
var irregularOrdinals = map[string]string{
	"one": "first", "two": "second", "three": "third", "five": "fifth",
	"eight": "eighth", "nine": "ninth", "twelve": "twelfth",
}

// ordinal turns a cardinal number word into its ordinal: "one" → "first",
// "twenty" → "twentieth", "hundred" → "hundredth".
func ordinal(w string) string {
	if o, ok := irregularOrdinals[w]; ok {
		return o
	}
	if s, ok := strings.CutSuffix(w, "y"); ok {
		return s + "ieth"
	}
	return w + "th"
}

// plural turns a number word into its plural: "twenty" → "twenties",
// "six" → "sixes", "hundred" → "hundreds".
func plural(w string) string {
	if s, ok := strings.CutSuffix(w, "y"); ok {
		return s + "ies"
	}
	if w == "six" {
		return "sixes"
	}
	return w + "s"
}
