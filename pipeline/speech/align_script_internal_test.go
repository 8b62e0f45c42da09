package speech

import (
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/speechdata"
)

// TestScriptWords splits scripts into their words as written, each with
// the normalized words it aligns as; words that normalize to nothing join
// a neighbour, and the normalized words always make up the normalization
// of the whole script.
func TestScriptWords(t *testing.T) {
	tests := []struct {
		name, script string
		want         []string // "as written=normalized words"
	}{
		{"as written", "Dr. Smith paid $5.", []string{"Dr.=dr", "Smith=smith", "paid=paid", "$5.=five"}},
		{"a word, several words", "In 1999, 50% of us", []string{"In=in", "1999,=nineteen ninety nine", "50%=fifty percent", "of=of", "us=us"}},
		{"dash joins the word before", "wait — no", []string{"wait —=wait", "no=no"}},
		{"opening marks join the word after", "he said “ yes ” ( twice )", []string{"he=he", "said=said", "“ yes ”=yes", "( twice )=twice"}},
		{"leading and trailing marks", "— so ! ?", []string{"— so ! ?=so"}},
		{"inner punctuation splits a word", "x-ray 3:30 AT&T", []string{"x-ray=x ray", "3:30=three thirty", "AT&T=at and t"}},
		{"white space of all kinds", "one\u00a0two\tthree\n", []string{"one=one", "two=two", "three=three"}},
		{"nothing to say", "— ! …", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got, norm []string
			for _, w := range scriptWords(tc.script) {
				got = append(got, w.text+"="+strings.Join(w.norm, " "))
				norm = append(norm, w.norm...)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if whole := speechdata.Normalize(tc.script); strings.Join(norm, " ") != whole {
				t.Errorf("normalized words %q, want those of the whole script %q", norm, whole)
			}
		})
	}
}
