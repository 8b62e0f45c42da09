package speechdata_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/speechdata"
)

// TestParsePronunciations checks the CMU format: alternates, stress
// marks, comments, case, and malformed lines as errors naming the line.
func TestParsePronunciations(t *testing.T) {
	const dict = ";;; a comment\n" +
		"# another\n" +
		"READ(2)  R IY1 D\n" + // an alternate before the unnumbered entry
		"READ  R EH1 D\n" +
		"read(3) R EY D\n" +
		"\n" +
		"don't D OW1 N T # trailing comment\n" +
		"a(2) EY\n" +
		"a AH0\n"
	p, err := speechdata.ParsePronunciations("dict", strings.NewReader(dict))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		word string
		want string // "" for none
	}{
		{"read", "R EH D"},
		{"don't", "D OW N T"},
		{"a", "AH"},
		{"READ", ""}, // lookups are by the normalized, lower-case word
		{"missing", ""},
	} {
		got, ok := p.Word(tc.word)
		if strings.Join(got, " ") != tc.want || ok != (tc.want != "") {
			t.Errorf("Word(%q) = %v, %v; want %q", tc.word, got, ok, tc.want)
		}
	}
	if p.Len() != 3 {
		t.Errorf("Len = %d, want 3", p.Len())
	}

	for _, tc := range []struct {
		name, text, want string
	}{
		{"no phones", "ok OW K\nword\n", `dict:2: malformed line: "word"`},
		{"bad alternate", "word(x) W ER D\n", `dict:1: malformed line: "word(x)"`},
		{"lower-case phone", "word w ER D\n", `dict:1: malformed line: word "word": phone "w"`},
		{"stress 3", "word W ER3 D\n", `phone "ER3"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := speechdata.ParsePronunciations("dict", strings.NewReader(tc.text))
			if !errors.Is(err, speechdata.ErrSyntax) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrSyntax with %q", err, tc.want)
			}
		})
	}
}

// TestPronunciationsTranscript turns a known sentence into phones with
// the fixture dictionary, and reports the first word it lacks.
func TestPronunciationsTranscript(t *testing.T) {
	p, err := speechdata.ReadPronunciations("../../testdata/speech/cmudict-tiny.dict")
	if err != nil {
		t.Fatal(err)
	}
	got, missing := p.Transcript(speechdata.Normalize("Good morning, open the door!"))
	want := strings.Fields("G UH D M AO R N IH NG OW P AH N DH AH D AO R")
	if !slices.Equal(got, want) || missing != "" {
		t.Errorf("Transcript = %v (missing %q), want %v", got, missing, want)
	}
	if got, missing := p.Transcript("open the window"); got != nil || missing != "window" {
		t.Errorf("Transcript(open the window) = %v, missing %q; want nil, window", got, missing)
	}
	if _, err := speechdata.ReadPronunciations("no-such.dict"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: error %v, want os.ErrNotExist", err)
	}
}

// TestDefaultPronunciations reads Debian's dictionary when installed.
func TestDefaultPronunciations(t *testing.T) {
	if _, err := os.Stat(speechdata.DefaultPronunciations); err != nil {
		t.Skip("pocketsphinx-en-us is not installed")
	}
	p, err := speechdata.ReadPronunciations(speechdata.DefaultPronunciations)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := p.Transcript("thank you"); strings.Join(got, " ") != "TH AE NG K Y UW" || p.Len() < 100000 {
		t.Errorf("thank you = %v (%d words)", got, p.Len())
	}
}
