package ngram

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestGoldenReference compares Log10Prob on models we did not make (CMU
// Sphinx's turtle and tidigits test models, see testdata/README.md)
// with an independent Python implementation of the textbook back-off
// rule, testdata/arpa_ref.py, whose output is committed as the golden
// files (CI has no Python). Regenerate them as the script's docstring
// says.
func TestGoldenReference(t *testing.T) {
	for _, name := range []string{"turtle", "tidigits"} {
		t.Run(name, func(t *testing.T) {
			m, err := Load("testdata/"+name+".arpa", nil)
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimRight(readFile(t, "testdata/"+name+".golden.tsv"), "\n")
			for _, line := range strings.Split(golden, "\n") {
				f := strings.SplitN(line, "\t", 3)
				want, _ := strconv.ParseFloat(f[0], 64)
				wantOOV, _ := strconv.Atoi(f[1])
				words := strings.Fields(f[2])
				got, oov := m.Log10Prob(words)
				if math.Abs(got-want) > 1e-4 || oov != wantOOV {
					t.Errorf("%q: log10 p = %.6f with %d OOVs, want %.6f with %d", f[2], got, oov, want, wantOOV)
				}
			}
		})
	}
}

// TestForeignModels runs the query checks on the Sphinx models: Score
// against the naive back-off model on random sentences, LookAhead
// against brute force.
func TestForeignModels(t *testing.T) {
	for i, name := range []string{"turtle", "tidigits", "tiny"} {
		t.Run(name, func(t *testing.T) {
			text := readFile(t, "testdata/"+name+".arpa")
			m, ref := loadText(t, text, nil), parseNaive(text)
			rng := rand.New(rand.NewPCG(uint64(i), 9))
			for _, s := range randomSentences(rng, m.Words(), 300, 8) {
				got, _ := m.Log10Prob(s)
				if want := ref.sentence(s); math.Abs(got-want) > 1e-4 {
					t.Errorf("%q: %.5f, want %.5f", s, got, want)
				}
			}
			checkLookAhead(t, m, rng, 3000)
		})
	}
}
