package audio

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The decode benchmarks run on 10 s of audio at 16 kHz mono (what the
// speech models read) and 44.1 kHz stereo (typical music and user files),
// and report the real-time factor: seconds of audio decoded per second.
//
//	go test -run='^$' -bench='^BenchmarkDecode' -benchtime=20x ./audio
//
// WAV files are generated here; FLAC, Ogg Vorbis and MP3 are encoded from
// them with the flac, oggenc and lame tools at their default settings, and
// those benchmarks are skipped when the tools are not installed.

const benchSeconds = 10

var benchShapes = []struct {
	name     string
	rate     int
	channels int
}{
	{"16kHz_mono", 16000, 1},
	{"44kHz_stereo", 44100, 2},
}

func BenchmarkDecodeWAV(b *testing.B) { benchmarkDecode(b, "", nil) }

func BenchmarkDecodeFLAC(b *testing.B) {
	benchmarkDecode(b, "flac", func(in, out string) []string { return []string{"-s", "-f", "-o", out, in} })
}

func BenchmarkDecodeOGG(b *testing.B) {
	benchmarkDecode(b, "oggenc", func(in, out string) []string { return []string{"-Q", "-o", out, in} })
}

func BenchmarkDecodeMP3(b *testing.B) {
	benchmarkDecode(b, "lame", func(in, out string) []string { return []string{"--quiet", in, out} })
}

// benchmarkDecode decodes benchSeconds of audio per iteration, in every
// shape of benchShapes. tool encodes the WAV file with the given
// arguments; an empty tool decodes the WAV itself.
func benchmarkDecode(b *testing.B, tool string, args func(in, out string) []string) {
	if tool != "" {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("%s is not installed (Debian: apt-get install flac vorbis-tools lame)", tool)
		}
	}
	for _, shape := range benchShapes {
		b.Run(shape.name, func(b *testing.B) {
			data := benchWAV(shape.rate, shape.channels)
			if tool != "" {
				dir := b.TempDir()
				in, out := filepath.Join(dir, "in.wav"), filepath.Join(dir, "out")
				if err := os.WriteFile(in, data, 0o644); err != nil {
					b.Fatal(err)
				}
				if msg, err := exec.Command(tool, args(in, out)...).CombinedOutput(); err != nil {
					b.Fatalf("%s: %v\n%s", tool, err, msg)
				}
				var err error
				if data, err = os.ReadFile(out); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				sig, err := Decode(bytes.NewReader(data))
				if err != nil {
					b.Fatal(err)
				}
				if sig.Duration().Seconds() < benchSeconds {
					b.Fatalf("decoded %v, want %d s", sig.Duration(), benchSeconds)
				}
			}
			b.ReportMetric(benchSeconds*float64(b.N)/b.Elapsed().Seconds(), "x_realtime")
		})
	}
}

// benchWAV returns benchSeconds of 16-bit PCM: a 100 Hz to 4 kHz chirp plus
// a little noise, which keeps the lossless and lossy encoders honest (a
// pure tone compresses unrealistically well).
func benchWAV(rate, channels int) []byte {
	rng := rand.New(rand.NewPCG(7, 7))
	n := benchSeconds * rate
	samples := make([]int16, 0, n*channels)
	for i := range n {
		t := float64(i) / float64(rate)
		f := 100 + (4000-100)*t/benchSeconds/2 // instantaneous frequency 100 + 390·t Hz
		x := 0.4*math.Sin(2*math.Pi*f*t) + 0.05*rng.NormFloat64()
		for range channels {
			samples = append(samples, int16(max(min(x, 1), -1)*32767))
		}
	}
	return riffWAVE(wavChunk("fmt ", fmtBody(tagPCM, channels, rate, 16)), wavChunk("data", pcm16(samples...)))
}
