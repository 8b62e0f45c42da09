package speechdata

import (
	"fmt"
	"strings"
	"testing"
)

func benchmarkNormalize(b *testing.B, text string) {
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Normalize(text)
	}
}

// A typical read-speech transcript, and one full of numbers, accents and
// punctuation.
func BenchmarkNormalizePlain(b *testing.B) {
	benchmarkNormalize(b, "IT'S NOT FIRST PERSON NOW AND WE CALL IT BEAR")
}

func BenchmarkNormalizeMixed(b *testing.B) {
	benchmarkNormalize(b, "On 21st May 1999, Zoë paid $3,500.25 — 50% of the café’s rent — for the 2nd time.")
}

func BenchmarkParseTSV(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("path\ttext\tspeaker\tgender\tage\n")
	for i := range 2500 {
		fmt.Fprintf(&sb, "train/SPEAKER%04d/%09d.ogg\tWE CALL IT BEAR\t%04d\tm\t6\n", i/20, i, i/20)
	}
	manifest := sb.String()
	b.SetBytes(int64(len(manifest)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseTSV("/m/train.tsv", strings.NewReader(manifest)); err != nil {
			b.Fatal(err)
		}
	}
}
