package synth

import (
	"reflect"
	"strings"
	"testing"
)

func TestNormalizeText(t *testing.T) {
	tests := []struct {
		name, in, norm, reason string
	}{
		{"plain", "The cat sat", "the cat sat", ""},
		{"punctuation", `"Well," she said; "no-one knew!"`, "well she said no one knew", ""},
		{"apostrophes inside words", "Don't take 'em, Father Jape's", "don't take em father jape's", ""},
		{"single capitals", "I saw A cat", "i saw a cat", ""},
		{"digits", "Room 101 is empty", "", SkipDigits},
		{"acronym", "The IBM machine", "", SkipAcronym},
		{"acronym with apostrophe", "The LORD'S day", "", SkipAcronym},
		{"lone letter", "BABE or BABY n", "", SkipAcronym},
		{"lone letter in lower case", "barometer n an instrument", "", SkipLetter},
		{"lone letters a i o", "O Lord I have a cup", "o lord i have a cup", ""},
		{"abbreviation", "Mr Smith went home", "", SkipAbbrev},
		{"ampersand", "Salt & pepper", "", SkipSymbols},
		{"accented letter", "A café", "", SkipSymbols},
		{"only punctuation", "...", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			norm, reason := normalize(typographic.Replace(tc.in))
			if norm != tc.norm || reason != tc.reason {
				t.Errorf("normalize(%q) = %q, %q; want %q, %q", tc.in, norm, reason, tc.norm, tc.reason)
			}
		})
	}
}

func TestReadSentences(t *testing.T) {
	in := strings.Join([]string{
		"One two three.",
		"",
		"   ",
		"One  two   three four five six",
		"Call 911 now",
		"Just two",
		"It\u2019s a \u201cquoted\u201d word",
		"NASA flew",
	}, "\n")
	got, skipped, err := ReadSentences(strings.NewReader(in), "f.txt", &TextOptions{MinWords: 3, MaxWords: 5})
	if err != nil {
		t.Fatal(err)
	}
	want := []Sentence{
		{Text: "One two three.", Norm: "one two three", Source: "f.txt:1"},
		{Text: `It's a "quoted" word`, Norm: "it's a quoted word", Source: "f.txt:7"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sentences = %+v\nwant %+v", got, want)
	}
	wantSkipped := map[string]int{SkipTooLong: 1, SkipDigits: 1, SkipTooShort: 1, SkipAcronym: 1}
	if !reflect.DeepEqual(skipped, wantSkipped) {
		t.Errorf("skipped = %v, want %v", skipped, wantSkipped)
	}
	if _, _, err := ReadSentences(strings.NewReader(strings.Repeat("a", 2<<20)), "long.txt", nil); err == nil || !strings.Contains(err.Error(), "long.txt: line 1") {
		t.Errorf("a 2 MB line: %v, want an error naming the file and line", err)
	}
}

func TestSelect(t *testing.T) {
	var in []Sentence
	for _, w := range strings.Fields("a b c a d e f b g h") {
		in = append(in, Sentence{Text: w, Norm: w})
	}
	norms := func(s []Sentence) string {
		var b []string
		for _, x := range s {
			b = append(b, x.Norm)
		}
		return strings.Join(b, " ")
	}
	if got := norms(Select(in, 0, 1)); got != "a b c d e f g h" {
		t.Errorf("Select(all) = %q, want duplicates removed in order", got)
	}
	first := norms(Select(in, 4, 1))
	if len(strings.Fields(first)) != 4 {
		t.Fatalf("Select(4) = %q", first)
	}
	if again := norms(Select(in, 4, 1)); again != first {
		t.Errorf("Select is not deterministic: %q then %q", first, again)
	}
	differs := false
	for seed := uint64(2); seed < 10 && !differs; seed++ {
		differs = norms(Select(in, 4, seed)) != first
	}
	if !differs {
		t.Errorf("Select(4) gave %q for every seed", first)
	}
	if got := norms(Select(in, 100, 1)); got != "a b c d e f g h" {
		t.Errorf("Select(100) = %q", got)
	}
}
