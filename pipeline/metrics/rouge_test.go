package metrics

import (
	"errors"
	"testing"
)

// rougeF is ROUGE-L's F from P and R with β = 1.2: (1+β²)PR/(R+β²P).
func rougeF(p, r float64) float64 {
	return (1 + 1.44) * p * r / (r + 1.44*p)
}

func TestROUGELHandComputed(t *testing.T) {
	tests := []struct {
		name   string
		sample Sample
		want   float64
	}{
		// LCS("a b c d", "a c d e f") = "a c d", 3: P = 3/4, R = 3/5,
		// F = 2.44·0.45/(0.6 + 1.08) = 0.653571428…
		{"one reference", captionSample("a b c d", "a c d e f"), rougeF(3.0/4, 3.0/5)},
		// The LCS skips the inverted pair: "the cat sat" vs "sat the cat"
		// share "the cat", 2: P = R = 2/3, F = 2/3.
		{"order matters", captionSample("the cat sat", "sat the cat"), 2.0 / 3},
		// coco-caption maximises P and R separately: "a b c" against
		// "a b" (P = 2/3, R = 1) and "a b c d e f" (P = 1, R = 1/2) takes
		// P = 1 from the second and R = 1 from the first, so F = 1 though
		// neither reference equals the candidate.
		{"precision and recall from different references", captionSample("a b c", "a b", "a b c d e f"), 1},
		{"perfect", captionSample("a dog runs", "a dog runs"), 1},
		{"disjoint", captionSample("x y", "a b c"), 0},
		{"empty candidate", captionSample("", "a b c"), 0},
		// Repeats: LCS("a a a", "a b a") = 2: P = R = 2/3.
		{"repeated words", captionSample("a a a", "a b a"), 2.0 / 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			corpus, per, err := ROUGEL([]Sample{tt.sample})
			if err != nil {
				t.Fatal(err)
			}
			if !captionClose(per[0], tt.want) || corpus != per[0] {
				t.Errorf("ROUGE-L = %.17g (corpus %.17g), want %.17g", per[0], corpus, tt.want)
			}
		})
	}
}

func TestROUGELCorpusIsMean(t *testing.T) {
	samples := []Sample{
		captionSample("a b c d", "a c d e f"),
		captionSample("x y", "a b c"),
		captionSample("a dog runs", "a dog runs"),
	}
	corpus, per, err := ROUGEL(samples)
	if err != nil {
		t.Fatal(err)
	}
	want := (rougeF(3.0/4, 3.0/5) + 0 + 1) / 3
	if !captionClose(corpus, want) || len(per) != 3 {
		t.Errorf("ROUGE-L corpus %.17g (per %v), want %.17g", corpus, per, want)
	}
}

func TestLCSLen(t *testing.T) {
	ids := func(s string) []int32 {
		out := make([]int32, len(s))
		for i, r := range s {
			out[i] = int32(r)
		}
		return out
	}
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 0}, {"", "abc", 0},
		{"ABCBDAB", "BDCABA", 4}, // CLRS 15.4: "BCBA"
		{"abc", "abc", 3}, {"abc", "cba", 1}, {"aaaa", "aa", 2},
		{"XMJYAUZ", "MZJAWXU", 4}, // "MJAU"
	}
	var row []int32
	for _, tt := range tests {
		for _, swap := range []bool{false, true} {
			a, b := tt.a, tt.b
			if swap {
				a, b = b, a
			}
			var got int
			got, row = lcsLen(ids(a), ids(b), row)
			if got != tt.want {
				t.Errorf("lcsLen(%q, %q) = %d, want %d", a, b, got, tt.want)
			}
		}
	}
}

func TestROUGELErrors(t *testing.T) {
	if _, _, err := ROUGEL(nil); !errors.Is(err, ErrNoSamples) {
		t.Errorf("ROUGEL(nil) error %v, want ErrNoSamples", err)
	}
	if _, _, err := ROUGEL([]Sample{{Cand: []string{"a"}}}); !errors.Is(err, ErrNoReferences) {
		t.Errorf("no references: error %v, want ErrNoReferences", err)
	}
}
