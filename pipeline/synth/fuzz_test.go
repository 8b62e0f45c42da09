package synth

import (
	"math"
	"strings"
	"testing"

	"github.com/attend-go/attend/pipeline/speechdata"
)

// FuzzReadSentences checks that any text yields transcripts of the
// speech alphabet that Normalize leaves alone, and never panics.
func FuzzReadSentences(f *testing.F) {
	for _, s := range []string{
		"The cat sat.\nDon't panic 42\n",
		"The LORD'S day\nBABE n. a baby\n\"Well,\" she said",
		"Mr Smith & co\ncafé\n\n\t \n'tis o'er",
		"a\u2019b \u201cc\u201d \u2014 d\u2026",
		"x-ray -- (parens) ;:!?`",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		out, skipped, err := ReadSentences(strings.NewReader(text), "f", &TextOptions{MaxWords: 30})
		if err != nil {
			return // a line over 1 MiB
		}
		n := 0
		for _, c := range skipped {
			n += c
		}
		if lines := strings.Count(text, "\n") + 1; len(out)+n > lines {
			t.Fatalf("%d sentences and %d skipped from %d lines", len(out), n, lines)
		}
		for _, s := range out {
			if s.Norm == "" || strings.Trim(s.Norm, speechdata.Alphabet) != "" || strings.TrimSpace(s.Norm) != s.Norm {
				t.Fatalf("transcript %q of %q is not words of the alphabet", s.Norm, s.Text)
			}
			if again := speechdata.Normalize(s.Norm); again != s.Norm {
				t.Fatalf("Normalize(%q) = %q", s.Norm, again)
			}
			if len(strings.Fields(s.Norm)) > 30 {
				t.Fatalf("%q has more than 30 words", s.Norm)
			}
		}
	})
}

// FuzzRangeSet checks that Set accepts only finite ordered ranges and
// that String reads back.
func FuzzRangeSet(f *testing.F) {
	for _, s := range []string{"0.8,1.2", "20", "-6,-1", "2,1", "nan", "1e308,1e309", ",", "1,2,3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var r Range
		if r.Set(s) != nil {
			return
		}
		if math.IsNaN(r.Min) || math.IsInf(r.Min, 0) || math.IsInf(r.Max, 0) || r.Min > r.Max {
			t.Fatalf("Set(%q) accepted %v", s, r)
		}
		var back Range
		if err := back.Set(r.String()); err != nil || back != r {
			t.Fatalf("Set(%q) = %v; String %q reads back as %v, %v", s, r, r.String(), back, err)
		}
	})
}
