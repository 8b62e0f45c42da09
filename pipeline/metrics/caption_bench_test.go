package metrics

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// Benchmarks: go test -run '^$' -bench 'ScoreCaptions|BLEU|METEOR|ROUGEL|CIDErD|Tokenize' -cpu 1 ./pipeline/metrics
// cpu-ms/op is the process CPU time per operation (the machine is
// shared, so wall time overstates the cost).

// captionBenchSet returns images × refs synthetic captions the size of
// Flickr8k's dev split (1,000 × 5): 8–14 words from a 400-word vocabulary
// with Zipf-like frequencies, candidates half copied from a reference.
func captionBenchSet(images, refs int) (cands map[string]string, refSets map[string][]string) {
	r := rand.New(rand.NewPCG(5, 5))
	zipf := rand.NewZipf(r, 1.1, 2, 399)
	sentence := func() []string {
		w := make([]string, 8+r.IntN(7))
		for i := range w {
			w[i] = fmt.Sprintf("w%d", zipf.Uint64())
		}
		return w
	}
	cands = make(map[string]string, images)
	refSets = make(map[string][]string, images)
	for i := range images {
		id := fmt.Sprintf("%06d.jpg", i)
		var rs []string
		for range refs {
			rs = append(rs, strings.Join(sentence(), " ")+" .")
		}
		c := sentence()
		src := strings.Fields(rs[r.IntN(refs)])
		for j := range c {
			if j < len(src) && r.IntN(2) == 0 {
				c[j] = src[j]
			}
		}
		cands[id], refSets[id] = strings.Join(c, " "), rs
	}
	return cands, refSets
}

// reportCPU adds the process CPU time per operation since start, in
// milliseconds, to the benchmark's output.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64((captionCPUTime()-start).Microseconds())/1e3/float64(b.N), "cpu-ms/op")
}

func BenchmarkScoreCaptions(b *testing.B) {
	cands, refs := captionBenchSet(1000, 5)
	b.ReportAllocs()
	start := captionCPUTime()
	for b.Loop() {
		if _, err := ScoreCaptions(cands, refs); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

func benchmarkCaptionMetric(b *testing.B, metric func([]Sample) error) {
	cands, refs := captionBenchSet(1000, 5)
	samples, err := NewSamples(cands, refs)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	start := captionCPUTime()
	for b.Loop() {
		if err := metric(samples); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

func BenchmarkBLEU(b *testing.B) {
	benchmarkCaptionMetric(b, func(s []Sample) error { _, err := BLEU(s); return err })
}

func BenchmarkMETEOR(b *testing.B) {
	benchmarkCaptionMetric(b, func(s []Sample) error { _, _, err := METEOR(s, nil); return err })
}

func BenchmarkROUGEL(b *testing.B) {
	benchmarkCaptionMetric(b, func(s []Sample) error { _, _, err := ROUGEL(s); return err })
}

func BenchmarkCIDErD(b *testing.B) {
	benchmarkCaptionMetric(b, func(s []Sample) error { _, _, err := CIDErD(s); return err })
}

func BenchmarkTokenize(b *testing.B) {
	const caption = `A little girl in a pink dress, climbing up a set of stairs in an entry way.`
	b.ReportAllocs()
	for b.Loop() {
		Tokenize(caption)
	}
}
