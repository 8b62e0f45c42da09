package ngram

import (
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// loadText reads an ARPA model from a string.
func loadText(t testing.TB, text string, opts *LoadOptions) *Model {
	t.Helper()
	m, err := Read(strings.NewReader(text), opts)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestScoreTiny(t *testing.T) {
	m := loadText(t, readFile(t, "testdata/tiny.arpa"), nil)
	tests := []struct {
		name    string
		words   []string
		want    float64 // log10 p(<s> words </s>)
		wantOOV int
	}{
		{"trigram hits", []string{"a", "b", "c"}, -0.4 + -0.1 + -0.25 + -0.8, 0},
		{"two back-offs", []string{"a", "b", "d"}, -0.4 + -0.1 + (-0.25 + -0.2 + -1.5) + -1.0, 0},
		{"inserted prefix c a", []string{"c", "a", "b"}, (-0.5 + -1.2) + (-0.1 + -0.7) + -0.05 + (-0.25 + -0.2 + -1.0), 0},
		{"unknown word", []string{"zebra"}, -0.5 + -2.0 + -1.0, 1},
		{"empty sentence", nil, -0.5 + -1.0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, oov := m.Log10Prob(tc.words)
			if math.Abs(got-tc.want) > 1e-5 || oov != tc.wantOOV {
				t.Errorf("Log10Prob = %.5f, %d OOVs; want %.5f, %d", got, oov, tc.want, tc.wantOOV)
			}
		})
	}
}

// randomSentences draws n sentences of up to maxLen words from vocab
// (plus an unknown word).
func randomSentences(rng *rand.Rand, vocab []string, n, maxLen int) [][]string {
	out := make([][]string, n)
	for i := range out {
		s := make([]string, rng.IntN(maxLen+1))
		for j := range s {
			if rng.IntN(20) == 0 {
				s[j] = "never-seen"
			} else {
				s[j] = vocab[rng.IntN(len(vocab))]
			}
		}
		out[i] = s
	}
	return out
}

func TestScoreMatchesNaive(t *testing.T) {
	for _, file := range []string{"testdata/tiny.arpa"} {
		text := readFile(t, file)
		m, ref := loadText(t, text, nil), parseNaive(text)
		rng := rand.New(rand.NewPCG(1, 2))
		for _, s := range randomSentences(rng, m.Words(), 300, 8) {
			got, _ := m.Log10Prob(s)
			if want := ref.sentence(s); math.Abs(got-want) > 1e-4 {
				t.Errorf("%s: %q: %.5f, want %.5f", file, s, got, want)
			}
		}
	}
}

// TestLookAheadBruteForce checks LookAhead against the maximum of Score
// over random ranges, from random contexts.
func TestLookAheadBruteForce(t *testing.T) {
	m := loadText(t, readFile(t, "testdata/tiny.arpa"), nil)
	checkLookAhead(t, m, rand.New(rand.NewPCG(3, 4)), 2000)
}

func checkLookAhead(t *testing.T, m *Model, rng *rand.Rand, n int) {
	t.Helper()
	V := len(m.Words())
	states := []State{m.Null(), m.Begin()}
	for range 50 {
		s := m.Begin()
		for range rng.IntN(5) {
			_, s = m.Score(s, WordID(rng.IntN(V)))
		}
		states = append(states, s)
	}
	for range n {
		s := states[rng.IntN(len(states))]
		lo := WordID(rng.IntN(V + 1))
		hi := lo + WordID(rng.IntN(V+1-int(lo)))
		want := float32(math.Inf(-1))
		for w := lo; w < hi; w++ {
			lp, _ := m.Score(s, w)
			want = max(want, lp)
		}
		got := m.LookAhead(s, lo, hi)
		if got < want-1e-5 {
			t.Fatalf("LookAhead(%d, %d, %d) = %g below the true max %g", s, lo, hi, got, want)
		}
		if s == m.Null() && got != want {
			t.Fatalf("LookAhead(Null, %d, %d) = %g, want the unigram max %g", lo, hi, got, want)
		}
		if f := lookAheadByScan(m, s, lo, hi); math.Abs(float64(got-f)) > 1e-5 {
			t.Fatalf("LookAhead(%d, %d, %d) = %g, the recursion by linear scans gives %g", s, lo, hi, got, f)
		}
		if lo == hi && !math.IsInf(float64(got), -1) {
			t.Fatalf("LookAhead of an empty range = %g, want -Inf", got)
		}
	}
}

// lookAheadByScan evaluates LookAhead's recursion with linear scans of
// the successors instead of binary search and the range-maximum table.
func lookAheadByScan(m *Model, s State, lo, hi WordID) float32 {
	best := float32(math.Inf(-1))
	if lo >= hi {
		return best
	}
	var acc float32
	x := int32(s)
	for {
		n := 0
		for c := m.child[x]; c < m.child[x+1]; c++ {
			if w := WordID(m.word[c]); w >= lo && w < hi {
				best = max(best, acc+m.prob[c])
				n++
			}
		}
		if x == 0 || n == int(hi-lo) {
			return best * ln10
		}
		acc += m.bow[x]
		x = m.back[x]
	}
}
