package whisper

import (
	"math/rand/v2"
	"testing"
)

// Benchmarks of the per-step decoding work outside the network, at the
// multilingual vocabulary's size (51,865 logits).

func randomLogits(n int, seed uint64) []float32 {
	r := rand.New(rand.NewPCG(seed, 1))
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(r.NormFloat64() * 3)
	}
	return x
}

func BenchmarkApplyTimestampRules(b *testing.B) {
	const vocab, tb = 51865, 50364
	rules := &ApplyTimestampRules{EOT: 50257, NoTimestamps: tb - 1, TimestampBegin: tb, SampleBegin: 3, MaxInitialTimestampIndex: 50}
	src := randomLogits(vocab, 1)
	x := make([]float32, vocab)
	tokens := []int{50258, 50259, 50360, tb + 10, 400, 500}
	b.ReportAllocs()
	for b.Loop() {
		copy(x, src)
		rules.Apply(x, tokens)
	}
}

func BenchmarkBeamSearchStep(b *testing.B) {
	const vocab = 51865
	logits := make([][]float32, 5)
	seqs := make([][]int, 5)
	for i := range logits {
		logits[i] = randomLogits(vocab, uint64(i))
		seqs[i] = []int{50258, 50259, 50360, 50364, i}
	}
	sum := make([]float32, 5)
	b.ReportAllocs()
	for b.Loop() {
		d := &BeamSearchDecoder{BeamSize: 5, EOT: 50257}
		d.Update(seqs, logits, sum)
	}
}

// BenchmarkDTW aligns 100 tokens to a full window's 1,500 frames.
func BenchmarkDTW(b *testing.B) {
	const n, m = 100, 1500
	x := randomLogits(n*m, 2)
	b.ReportAllocs()
	for b.Loop() {
		dtw(x, n, m)
	}
}

func BenchmarkMedianFilter(b *testing.B) {
	const rows, cols = 100, 1500
	src := randomLogits(rows*cols, 3)
	x := make([]float32, len(src))
	b.ReportAllocs()
	for b.Loop() {
		copy(x, src)
		medianFilter(x, rows, cols, 7)
	}
}
