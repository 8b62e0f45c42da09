package audio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The resampler against SoX's ("rate -v", very high quality): the same
// signals at 8, 22.05, 44.1 and 48 kHz brought to 16 kHz, the rate of the
// speech models, by both. Skipped without the sox command.

var soxRates = []int{8000, 22050, 44100, 48000}

// writeFloatWAV writes mono 32-bit float samples as a WAV file.
func writeFloatWAV(t testing.TB, path string, x []float32, rate int) {
	t.Helper()
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + 4*len(x)))
	b.WriteString("WAVEfmt ")
	for _, v := range []any{uint32(16), uint16(3), uint16(1), uint32(rate), uint32(4 * rate), uint16(4), uint16(32)} {
		le(v)
	}
	b.WriteString("data")
	le(uint32(4 * len(x)))
	le(x)
	if err := os.WriteFile(path, b.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
}

// soxResample resamples x from rate from to rate to with "sox rate -v"
// (no dither, float output).
func soxResample(t testing.TB, x []float32, from, to int) []float32 {
	t.Helper()
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.wav"), filepath.Join(dir, "out.wav")
	writeFloatWAV(t, in, x, from)
	cmd := exec.Command("sox", "-D", in, "-e", "floating-point", "-b", "32", out, "rate", "-v", fmt.Sprint(to))
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sox: %v\n%s", err, msg)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return s.Samples
}

func ourResample(t testing.TB, x []float32, from, to int) []float32 {
	t.Helper()
	s, err := Resample(&Signal{Samples: x, Rate: from, Channels: 1}, to)
	if err != nil {
		t.Fatal(err)
	}
	return s.Samples
}

// soxSNRDB is 10·log10(Σref² / Σ(x−ref)²) over the samples both have, less
// margin at each end (the filters' edges), at the lag in [−8, 8] that
// makes it best; it returns that lag too.
func soxSNRDB(ref, x []float32, margin int) (float64, int) {
	best, bestLag := math.Inf(-1), 0
	for lag := -8; lag <= 8; lag++ {
		var sig, noise float64
		for i := margin; i < min(len(ref), len(x))-margin; i++ {
			j := i + lag
			if j < 0 || j >= len(x) {
				continue
			}
			d := float64(x[j]) - float64(ref[i])
			sig += float64(ref[i]) * float64(ref[i])
			noise += d * d
		}
		if s := 10 * math.Log10(sig/noise); s > best {
			best, bestLag = s, lag
		}
	}
	return best, bestLag
}

// energyDB is 10·log10 of the mean square of x less margin at each end.
func energyDB(x []float32, margin int) float64 {
	var e float64
	n := 0
	for _, v := range x[margin : len(x)-margin] {
		e += float64(v) * float64(v)
		n++
	}
	return 10 * math.Log10(e/float64(n))
}

// chirp is a logarithmic sweep from f0 to f1 Hz over sec seconds at
// rate, amplitude 0.5, evaluated analytically.
func chirp(f0, f1, sec float64, rate int) []float32 {
	n := int(sec * float64(rate))
	x := make([]float32, n)
	k := math.Log(f1 / f0)
	for i := range x {
		tm := float64(i) / float64(rate)
		phase := 2 * math.Pi * f0 * sec / k * (math.Exp(k*tm/sec) - 1)
		x[i] = float32(0.5 * math.Sin(phase))
	}
	return x
}

func TestResampleAgainstSox(t *testing.T) {
	if _, err := exec.LookPath("sox"); err != nil {
		t.Skip("no sox command (apt-get install sox)")
	}
	const to, margin = 16000, 1600
	for _, from := range soxRates {
		// The passband: a sweep to 7 kHz (or 0.45 of a lower rate), both
		// resamplers against the analytic sweep at 16 kHz.
		top := min(7000, 0.45*float64(from))
		x, want := chirp(50, top, 4, from), chirp(50, top, 4, to)
		ours, sox := ourResample(t, x, from, to), soxResample(t, x, from, to)
		oursSNR, oursLag := soxSNRDB(want, ours, margin)
		soxSNR, soxLag := soxSNRDB(want, sox, margin)
		agree, _ := soxSNRDB(sox, ours, margin)
		t.Logf("%5d Hz sweep 50–%.0f Hz: ours %.1f dB (lag %d), sox %.1f dB (lag %d), ours vs sox %.1f dB",
			from, top, oursSNR, oursLag, soxSNR, soxLag, agree)
		if oursSNR < 40 || oursLag != 0 {
			t.Errorf("%d Hz: the sweep comes out at %.1f dB SNR, lag %d; want ≥ 40 dB, no lag", from, oursSNR, oursLag)
		}
		if from > to {
			// The stopband: a sweep from 8.5 kHz up must vanish (aliasing).
			hi := chirp(8500, 0.45*float64(from), 4, from)
			in := energyDB(hi, margin)
			oursLeak := energyDB(ourResample(t, hi, from, to), margin/3) - in
			soxLeak := energyDB(soxResample(t, hi, from, to), margin/3) - in
			t.Logf("%5d Hz sweep 8.5–%.0f kHz (to be removed): ours %.1f dB, sox %.1f dB", from, 0.45*float64(from)/1000, oursLeak, soxLeak)
			if oursLeak > -60 {
				t.Errorf("%d Hz: content above 8 kHz leaks through at %.1f dB; want ≤ −60 dB", from, oursLeak)
			}
		}
	}
	// Speech: the test clips (16 kHz) taken to each rate by sox, and back
	// by both.
	var speech []float32
	for i := 1; i <= 6; i++ {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "speech", fmt.Sprintf("u%02d.flac", i)))
		if err != nil {
			t.Skip(err)
		}
		s, err := Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		speech = append(speech, s.Samples...)
	}
	for _, from := range soxRates {
		src := soxResample(t, speech, to, from)
		ours, sox := ourResample(t, src, from, to), soxResample(t, src, from, to)
		agree, lag := soxSNRDB(sox, ours, margin)
		if from == 8000 { // band-limited to 4 kHz: compare with sox only
			t.Logf("%5d Hz speech: ours vs sox %.1f dB (lag %d)", from, agree, lag)
		} else {
			oursSNR, _ := soxSNRDB(speech, ours, margin)
			soxSNR, _ := soxSNRDB(speech, sox, margin)
			t.Logf("%5d Hz speech: back at 16 kHz ours %.1f dB, sox %.1f dB, ours vs sox %.1f dB (lag %d)", from, oursSNR, soxSNR, agree, lag)
		}
		if agree < 30 || lag != 0 {
			t.Errorf("%d Hz speech: ours and sox agree to %.1f dB, lag %d; want ≥ 30 dB, no lag", from, agree, lag)
		}
	}
}
