package speechdata

import (
	"strings"
	"unicode"
)

// foldGroups lists lower-case Latin letters by the ASCII they fold to:
// every lower-case letter of Latin-1 Supplement, Latin Extended-A and
// Latin Extended Additional whose compatibility decomposition (NFKD) is
// ASCII letters plus combining marks, the f/s/t ligatures, and, by hand,
// the letters that do not decompose (ß, æ, ø, þ, ł, œ, …). Upper-case
// letters reach it through unicode.ToLower.
var foldGroups = [...]struct{ ascii, letters string }{
	{"a", "àáâãäåāăąǎǟǡǻȁȃȧḁạảấầẩẫậắằẳẵặẚ"},
	{"ae", "æǣǽ"},
	{"b", "ḃḅḇƀƃ"},
	{"c", "çćĉċčḉƈȼ"},
	{"d", "ďḋḍḏḑḓđðƌȡ"},
	{"dz", "ǆǳ"},
	{"e", "èéêëēĕėęěȅȇȩḕḗḙḛḝẹẻẽếềểễệǝɇ"},
	{"f", "ḟƒ"},
	{"ff", "ﬀ"},
	{"ffi", "ﬃ"},
	{"ffl", "ﬄ"},
	{"fi", "ﬁ"},
	{"fl", "ﬂ"},
	{"g", "ĝğġģǧǵḡǥ"},
	{"h", "ĥȟḣḥḧḩḫẖħ"},
	{"i", "ìíîïĩīĭįǐȉȋḭḯỉịı"},
	{"ij", "ĳ"},
	{"j", "ĵǰȷɉ"},
	{"k", "ķǩḱḳḵƙĸ"},
	{"l", "ĺļľḷḹḻḽŀłƚȴ"},
	{"lj", "ǉ"},
	{"m", "ḿṁṃ"},
	{"n", "ñńņňǹṅṇṉṋŉƞȵ"},
	{"ng", "ŋ"},
	{"nj", "ǌ"},
	{"o", "òóôõöōŏőơǒǫǭȍȏȫȭȯȱṍṏṑṓọỏốồổỗộớờởỡợøǿ"},
	{"oe", "œ"},
	{"p", "ṕṗƥ"},
	{"q", "ɋ"},
	{"r", "ŕŗřȑȓṙṛṝṟɍ"},
	{"s", "śŝşšſșṡṣṥṧṩẛẜẝȿ"},
	{"ss", "ß"},
	{"st", "ﬅﬆ"},
	{"t", "ţťțṫṭṯṱẗŧƭȶ"},
	{"th", "þ"},
	{"u", "ùúûüũūŭůűųưǔǖǘǚǜȕȗṳṵṷṹṻụủứừửữự"},
	{"v", "ṽṿ"},
	{"w", "ŵẁẃẅẇẉẘ"},
	{"x", "ẋẍ"},
	{"y", "ýÿŷȳẏẙỳỵỷỹƴɏ"},
	{"z", "źżžẑẓẕƶȥɀ"},
}

// folds maps each letter of foldGroups to its ASCII.
var folds = func() map[rune]string {
	m := make(map[rune]string)
	for _, g := range foldGroups {
		for _, r := range g.letters {
			m[r] = g.ascii
		}
	}
	return m
}()

// apostrophes are the characters read as an apostrophe: ASCII, the
// typographic right and left single quotes, the modifier letter
// apostrophe, the grave and acute accents used as apostrophes, and the
// prime.
const apostrophes = "'\u2019\u2018\u02bc`\u00b4\u2032"

// asciiChars holds the 128 ASCII characters in order, so that one can be
// returned as a string without allocating.
var asciiChars = func() string {
	b := make([]byte, 128)
	for i := range b {
		b[i] = byte(i)
	}
	return string(b)
}()

// fold maps one rune of lower-cased text to what the normalizer reads:
// an ASCII letter, digit or one of ' . , % & (ok is true and s holds
// it), nothing at all (a combining mark or an invisible format
// character: ok is true and s is empty), or a word boundary (ok false).
func fold(r rune) (s string, ok bool) {
	if r >= 0xFF01 && r <= 0xFF5E { // fullwidth ASCII
		r -= 0xFEE0
		r = unicode.ToLower(r)
	}
	switch {
	case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.', r == ',', r == '%', r == '&':
		return asciiChars[r : r+1], true
	case strings.ContainsRune(apostrophes, r):
		return "'", true
	case r < 0x80:
		return "", false
	}
	if f, found := folds[r]; found {
		return f, true
	}
	if unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || unicode.Is(unicode.Cf, r) {
		return "", true
	}
	return "", false
}
