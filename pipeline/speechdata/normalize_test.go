package speechdata

import (
	"strings"
	"testing"
	"unicode"
)

func TestNormalize(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"white space only", " \t\n ", ""},
		{"punctuation only", "?!…", ""},
		{"lower case and single spaces", "  Hello,   WORLD!\n", "hello world"},
		{"speechocean762 row", "IT'S NOT FIRST PERSON NOW", "it's not first person now"},
		{"hyphens and dashes", "x-ray — well–known", "x ray well known"},
		{"slashes colons brackets", "a/b (c) [d] {e}: f; g", "a b c d e f g"},
		{"latin-1 accents", "Café naïve Ångström façade", "cafe naive angstrom facade"},
		{"ligatures and special letters", "Straße Æsir Œuvre Øre Þór Łódź", "strasse aesir oeuvre ore thor lodz"},
		{"vietnamese", "Tiếng Việt", "tieng viet"},
		{"decomposed accent", "cafe\u0301", "cafe"},
		{"dotted capital I", "İstanbul", "istanbul"},
		{"fullwidth", "ＡＢＣ　ｄｅｆ　１２", "abc def twelve"},
		{"soft hyphen and zero-width joiner vanish", "co\u00adop\u200dera\ufefftion", "cooperation"},
		{"other scripts are boundaries", "hello Привет world 世界", "hello world"},
		{"curly apostrophe", "don’t", "don't"},
		{"modifier apostrophe and backtick", "donʼt can`t", "don't can't"},
		{"inner apostrophes kept", "rock'n'roll o'clock dog's", "rock'n'roll o'clock dog's"},
		{"outer apostrophes dropped", "'tis the dogs' 'quoted' ''", "tis the dogs quoted"},
		{"apostrophe runs collapse", "a''b", "a'b"},
		{"quotes", `"Yes," she said.`, "yes she said"},
		{"zero", "0", "zero"},
		{"units", "7", "seven"},
		{"teens", "13 19", "thirteen nineteen"},
		{"tens", "20 42 99", "twenty forty two ninety nine"},
		{"hundreds without and", "100 101 999", "one hundred one hundred one nine hundred ninety nine"},
		{"thousands", "1000 1001 2024", "one thousand one thousand one two thousand twenty four"},
		{"years", "1100 1905 1999 1900", "eleven hundred nineteen oh five nineteen ninety nine nineteen hundred"},
		{"not years", "1099 2000 2010", "one thousand ninety nine two thousand two thousand ten"},
		{"grouped thousands are not years", "1,999", "one thousand nine hundred ninety nine"},
		{"millions", "1,000,000 3,500,042", "one million three million five hundred thousand forty two"},
		{"large", "999999999999999999", "nine hundred ninety nine quadrillion nine hundred ninety nine trillion nine hundred ninety nine billion nine hundred ninety nine million nine hundred ninety nine thousand nine hundred ninety nine"},
		{"too large: digit by digit", "1000000000000000000", "one " + strings.Repeat("zero ", 17) + "zero"},
		{"leading zero: digit by digit", "007 0", "zero zero seven zero"},
		{"bad grouping", "1,23 2345,678", "one twenty three two thousand three hundred forty five six hundred seventy eight"},
		{"decimals", "3.5 0.25 12,345.67", "three point five zero point two five twelve thousand three hundred forty five point six seven"},
		{"period after number ends sentence", "It was 5.", "it was five"},
		{"version numbers", "1.2.3", "one point two three"},
		{"ordinals", "1st 2nd 3rd 4th 5th 8th 9th 11th 12th 20th 21st 100th 1000th",
			"first second third fourth fifth eighth ninth eleventh twelfth twentieth twenty first one hundredth one thousandth"},
		{"ordinal upper case", "21ST", "twenty first"},
		{"ordinal of a year-like number is cardinal", "1990th", "one thousand nine hundred ninetieth"},
		{"decimal with suffix is not ordinal", "3.5th", "three point five th"},
		{"decades", "1990s '80s 90's 1900s 6s", "nineteen nineties eighties nineties nineteen hundreds sixes"},
		{"digits split from letters", "mp3 4x4 b2b", "mp three four x four b two b"},
		{"percent and ampersand", "50% AT&T R & D", "fifty percent at and t r and d"},
		{"time", "3:30", "three thirty"},
		{"signs and currency are not read", "$5 -3 +4 €10", "five three four ten"},
		{"superscripts and other digits are boundaries", "x² ٣", "x"},
		{"abbreviations", "U.S.A. e.g. Mr.", "u s a e g mr"},
		{"invalid UTF-8 is a boundary", "a\xffb", "a b"},
		{"titlecase digraph", "ǅemal", "dzemal"},
	}
	// The examples of Normalize's doc comment.
	for _, row := range [][2]string{
		{"Hello, World!", "hello world"},
		{"x-ray — 3:30", "x ray three thirty"},
		{"Café naïve", "cafe naive"},
		{"Straße Æsir ﬁx", "strasse aesir fix"},
		{"cafe\u0301", "cafe"},
		{"don’t", "don't"},
		{"rock'n'roll o'clock", "rock'n'roll o'clock"},
		{"'tis dogs' 'quoted'", "tis dogs quoted"},
		{"42 101", "forty two one hundred one"},
		{"1,000,000", "one million"},
		{"1999 1905 1900", "nineteen ninety nine nineteen oh five nineteen hundred"},
		{"2024 1099", "two thousand twenty four one thousand ninety nine"},
		{"3.5 0.25", "three point five zero point two five"},
		{"21st 2nd 100th", "twenty first second one hundredth"},
		{"1990s '80s 90's", "nineteen nineties eighties nineties"},
		{"007", "zero zero seven"},
		{"mp3 4x4", "mp three four x four"},
		{"50% AT&T", "fifty percent at and t"},
		{"$5 -3 x² Привет", "five three x"},
	} {
		tests = append(tests, struct{ name, in, want string }{"doc " + row[0], row[0], row[1]})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Normalize(tt.in)
			if got != tt.want {
				t.Errorf("Normalize(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := Normalize(got); again != got {
				t.Errorf("not idempotent: Normalize(%q) = %q", got, again)
			}
		})
	}
}

// TestFoldTable checks the folding table: every key is a lower-case
// letter whose upper case lowers to a letter with the same folding (so
// upper-case input reaches the table), and every value is a–z.
func TestFoldTable(t *testing.T) {
	count := 0
	for _, g := range foldGroups {
		for _, c := range g.ascii {
			if c < 'a' || c > 'z' {
				t.Errorf("group %q folds to a non a–z character", g.ascii)
			}
		}
		for _, r := range g.letters {
			count++
			if !unicode.IsLower(r) {
				t.Errorf("%q (U+%04X) in group %q is not a lower-case letter", r, r, g.ascii)
			}
			// ı, ſ and ẛ lower from I, S and Ṡ to other letters that
			// fold the same.
			up := unicode.ToUpper(r)
			if low := unicode.ToLower(up); low != r && folds[low] != g.ascii && string(low) != g.ascii {
				t.Errorf("%q (U+%04X): upper case %q lowers to %q, which does not fold to %q", r, r, up, low, g.ascii)
			}
		}
	}
	if count != len(folds) {
		t.Errorf("%d letters in foldGroups, %d in folds: a letter is listed twice", count, len(folds))
	}
}

func TestAlphabet(t *testing.T) {
	if len(Alphabet) != 28 {
		t.Fatalf("len(Alphabet) = %d, want 28", len(Alphabet))
	}
	in := "The quick brown fox jumps over the lazy dog's back, doesn't it?"
	for _, r := range Normalize(in) {
		if !strings.ContainsRune(Alphabet, r) {
			t.Errorf("output rune %q not in Alphabet", r)
		}
	}
	for _, r := range Alphabet {
		if Normalize(string(r)+"a"+string(r)) == "" {
			t.Errorf("%q does not survive normalization", r)
		}
	}
}
