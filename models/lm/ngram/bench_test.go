package ngram

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// writeSyntheticARPA writes an order-3 ARPA file of v unigrams, about
// v·b bigrams and as many trigrams, in an order unrelated to the words'
// byte order (so Read must sort), and returns the number of n-grams.
func writeSyntheticARPA(tb testing.TB, path string, v, b int) int {
	tb.Helper()
	rng := rand.New(rand.NewPCG(5, 6))
	word := func(i int) string { return fmt.Sprintf("%x", uint32(i)*2654435761) }
	succ := func(n int) []int { // n distinct successors
		seen := make(map[int]bool, n)
		out := make([]int, 0, n)
		for len(out) < n {
			if w := rng.IntN(v); !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
		return out
	}
	type pair struct{ a, b int }
	var bigrams []pair
	for a := range v {
		for _, s := range succ(1 + rng.IntN(2*b)) {
			bigrams = append(bigrams, pair{a, s})
		}
	}
	trigrams := 0
	tri := make([][]int, len(bigrams))
	for i := range bigrams {
		tri[i] = succ(rng.IntN(3))
		trigrams += len(tri[i])
	}
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "\\data\\\nngram 1=%d\nngram 2=%d\nngram 3=%d\n\n\\1-grams:\n", v+2, len(bigrams), trigrams)
	fmt.Fprintf(w, "-99\t<s>\t-0.3\n-1.5\t</s>\n")
	for i := range v {
		fmt.Fprintf(w, "%.4f\t%s\t%.4f\n", -2-3*rng.Float64(), word(i), -rng.Float64())
	}
	fmt.Fprintf(w, "\n\\2-grams:\n")
	for _, p := range bigrams {
		fmt.Fprintf(w, "%.4f\t%s %s\t%.4f\n", -3*rng.Float64(), word(p.a), word(p.b), -rng.Float64())
	}
	fmt.Fprintf(w, "\n\\3-grams:\n")
	for i, p := range bigrams {
		for _, c := range tri[i] {
			fmt.Fprintf(w, "%.4f\t%s %s %s\n", -2*rng.Float64(), word(p.a), word(p.b), word(c))
		}
	}
	fmt.Fprintf(w, "\n\\end\\\n")
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return v + 2 + len(bigrams) + trigrams
}

// BenchmarkLoad2M loads a synthetic order-3 file of about 2.2 million
// n-grams (60k words; written outside the timer). It reports the peak
// heap in MB (runtime's HeapSys high-water mark is close to RSS).
func BenchmarkLoad2M(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.arpa")
	n := writeSyntheticARPA(b, path, 60000, 17)
	b.ReportAllocs()
	b.ResetTimer()
	var m *Model
	for b.Loop() {
		var err error
		if m, err = Load(path, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(n), "ngrams")
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-sys-MB")
	runtime.KeepAlive(m)
}

// queryModel is a trained order-4 model and random word ids for the
// query benchmarks.
func queryModel(b *testing.B) (*Model, []WordID) {
	m, err := Train(zipfCorpus(4, 20000, 5000), &TrainOptions{Order: 4})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(8, 9))
	ws := make([]WordID, 4096)
	for i := range ws {
		ws[i] = WordID(rng.IntN(len(m.Words())))
	}
	return m, ws
}

func BenchmarkScore(b *testing.B) {
	m, ws := queryModel(b)
	s := m.Begin()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		_, s = m.Score(s, ws[i&4095])
		i++
	}
}

func BenchmarkEnd(b *testing.B) {
	m, ws := queryModel(b)
	states := make([]State, len(ws))
	s := m.Begin()
	for i, w := range ws {
		_, s = m.Score(s, w)
		states[i] = s
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.End(states[i&4095])
		i++
	}
}

// BenchmarkLookAhead queries ranges of 1 to V/4 words from the states
// of a random walk.
func BenchmarkLookAhead(b *testing.B) {
	m, ws := queryModel(b)
	V := len(m.Words())
	states := make([]State, len(ws))
	s := m.Begin()
	for i, w := range ws {
		_, s = m.Score(s, w)
		states[i] = s
	}
	rng := rand.New(rand.NewPCG(1, 1))
	ranges := make([][2]WordID, 4096)
	for i := range ranges {
		lo := rng.IntN(V)
		ranges[i] = [2]WordID{WordID(lo), WordID(min(V, lo+1+rng.IntN(V/4)))}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r := ranges[i&4095]
		m.LookAhead(states[i&4095], r[0], r[1])
		i++
	}
}

// TestScoreAllocs pins Score, End and LookAhead to zero allocations.
func TestScoreAllocs(t *testing.T) {
	m := loadText(t, readFile(t, "testdata/turtle.arpa"), nil)
	s := m.Begin()
	allocs := testing.AllocsPerRun(100, func() {
		var lp float32
		lp, s = m.Score(s, 5)
		_ = lp + m.End(s) + m.LookAhead(s, 3, 60)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Score+End+LookAhead, want 0", allocs)
	}
}

// TestLookAheadLargeModel exercises the range-maximum table and the
// binary searches on a model with thousands of words and long successor
// lists.
func TestLookAheadLargeModel(t *testing.T) {
	m, err := Train(zipfCorpus(6, 3000, 2000), &TrainOptions{Order: 3})
	if err != nil {
		t.Fatal(err)
	}
	checkLookAhead(t, m, rand.New(rand.NewPCG(10, 11)), 300)
}
