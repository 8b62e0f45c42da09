package whisper

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

func BenchmarkEncodeTiny(b *testing.B) { benchmarkEncode(b, tinyDims) }
func BenchmarkEncodeBase(b *testing.B) { benchmarkEncode(b, baseDims) }

func BenchmarkDecodeTokenTiny(b *testing.B) { benchmarkDecodeToken(b, tinyDims) }
func BenchmarkDecodeTokenBase(b *testing.B) { benchmarkDecodeToken(b, baseDims) }

// benchModel builds a random model of d and one window of random log-mel.
func benchModel(b *testing.B, d Dims) (*Model, []float32) {
	b.Helper()
	m, err := newModel(d, randomTensors(d, 7))
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	mel := make([]float32, d.NMels*2*d.NAudioCtx)
	for i := range mel {
		mel[i] = float32(r.NormFloat64() * 0.5)
	}
	runtime.GC()
	return m, mel
}

// benchmarkEncode times the encoder on one 30-second window.
func benchmarkEncode(b *testing.B, d Dims) {
	m, mel := benchModel(b, d)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := m.Encode(mel); err != nil {
			b.Fatal(err)
		}
	}
}

// benchmarkDecodeToken times one decoding step (one token in, its logits
// out) at positions 4…, the steady state of greedy decoding, including
// the cross-attention over 1,500 frames and the 51,864-way output layer.
func benchmarkDecodeToken(b *testing.B, d Dims) {
	m, mel := benchModel(b, d)
	enc, err := m.Encode(mel)
	if err != nil {
		b.Fatal(err)
	}
	start := m.NewDecoder(enc, false)
	if _, err := start.Forward([]int{50257, 50362}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var dec TextDecoder
	for i := range b.N {
		if i%200 == 0 {
			b.StopTimer()
			dec = start.Clone()
			b.StartTimer()
		}
		if _, err := dec.Forward([]int{1000 + i%200}); err != nil {
			b.Fatal(err)
		}
	}
}
