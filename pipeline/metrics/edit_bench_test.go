package metrics

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// benchSentence returns n words drawn from a 50-word vocabulary.
func benchSentence(r *rand.Rand, n int) string {
	words := make([]string, n)
	for i := range words {
		words[i] = "w" + string(rune('a'+r.IntN(26))) + string(rune('a'+r.IntN(2)))
	}
	return strings.Join(words, " ")
}

// benchPair returns a reference of n words and a hypothesis with about
// 15% of its words replaced.
func benchPair(n int) (ref, hyp string) {
	r := rand.New(rand.NewPCG(7, 7))
	ref = benchSentence(r, n)
	words := strings.Fields(ref)
	for i := range words {
		if r.Float64() < 0.15 {
			words[i] = "x"
		}
	}
	return ref, strings.Join(words, " ")
}

func benchmarkErrors(b *testing.B, errors func(ref, hyp string) EditCounts, words int) {
	ref, hyp := benchPair(words)
	b.ReportAllocs()
	for b.Loop() {
		errors(ref, hyp)
	}
}

func BenchmarkWordErrors20(b *testing.B)  { benchmarkErrors(b, WordErrors, 20) }
func BenchmarkWordErrors500(b *testing.B) { benchmarkErrors(b, WordErrors, 500) }
func BenchmarkCharErrors20(b *testing.B)  { benchmarkErrors(b, CharErrors, 20) }
func BenchmarkCharErrors500(b *testing.B) { benchmarkErrors(b, CharErrors, 500) }
