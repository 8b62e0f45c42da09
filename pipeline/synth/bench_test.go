package synth

import (
	"context"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/audio"
)

// benchSentence is a typical 12-word training sentence.
const benchSentence = "And the evening and the morning were the third day of the week"

// benchPlan exercises every stage of the chain.
var benchPlan = Plan{Pitch: 1.05, RT60: 0.5, DRR: 6, Noise: audio.PinkNoise, SNR: 20, Telephone: true, Peak: -3, Seed: 1}

// BenchmarkRender measures whole clips per second for each installed
// engine with its first voice: the engine, decoding, the full
// augmentation chain and writing the WAV.
func BenchmarkRender(b *testing.B) {
	for _, e := range Engines() {
		b.Run(e.Name(), func(b *testing.B) {
			voices, err := e.Voices(context.Background())
			if errors.Is(err, ErrNotInstalled) {
				b.Skipf("%s is not installed", e.Name())
			}
			if err != nil || len(voices) == 0 {
				b.Fatalf("%s: %v (%d voices)", e.Name(), err, len(voices))
			}
			raw := filepath.Join(b.TempDir(), "raw.wav")
			b.ReportAllocs()
			var seconds float64
			cpu := cpuTime()
			for b.Loop() {
				seconds += benchClip(b, e, voices[0], raw)
			}
			cpu = cpuTime() - cpu
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "clips/s")
			b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/clip")
			b.ReportMetric(seconds/float64(b.N), "audio-s/clip")
		})
	}
}

func benchClip(b *testing.B, e Engine, voice, raw string) float64 {
	if err := e.Render(context.Background(), voice, benchSentence, 1, raw); err != nil {
		b.Fatal(err)
	}
	f, err := os.Open(raw)
	if err != nil {
		b.Fatal(err)
	}
	sig, err := audio.Decode(f)
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	x, err := Augment(sig, benchPlan)
	if err != nil {
		b.Fatal(err)
	}
	if err := WriteWAV(io.Discard, x, SampleRate); err != nil {
		b.Fatal(err)
	}
	return float64(len(x)) / SampleRate
}

// BenchmarkAugment measures the chain alone on 3 s of 22.05 kHz audio.
func BenchmarkAugment(b *testing.B) {
	const rate = 22050
	sig := &audio.Signal{Rate: rate, Channels: 1, Samples: make([]float32, 3*rate)}
	for i := range sig.Samples {
		sig.Samples[i] = float32(0.3 * math.Sin(2*math.Pi*150*float64(i)/rate))
	}
	b.ReportAllocs()
	cpu := cpuTime()
	for b.Loop() {
		if _, err := Augment(sig, benchPlan); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu).Milliseconds())/float64(b.N), "cpu-ms/op")
}
