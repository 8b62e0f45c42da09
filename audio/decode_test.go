package audio

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// readFixture returns the bytes of testdata/decode/name, made by
// testdata/gen_decode_fixtures.sh.
func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "decode", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// measureTone estimates the frequency (Hz) and amplitude of a sine in
// channel c of interleaved samples, over the middle half of the signal so
// that codec delay and edge effects do not count. The frequency comes from
// the interpolated times of the first and last rising zero crossings, the
// amplitude from the RMS (a sine's peak is √2 × RMS).
func measureTone(samples []float32, channels, c, rate int) (freq, amp float64) {
	n := len(samples) / channels
	x := make([]float64, 0, n/2)
	for i := n / 4; i < n*3/4; i++ {
		x = append(x, float64(samples[i*channels+c]))
	}
	var sum2 float64
	for _, v := range x {
		sum2 += v * v
	}
	amp = math.Sqrt(2 * sum2 / float64(len(x)))

	first, last, crossings := -1.0, -1.0, 0
	for i := 1; i < len(x); i++ {
		if x[i-1] < 0 && x[i] >= 0 {
			at := float64(i-1) + x[i-1]/(x[i-1]-x[i])
			if first < 0 {
				first = at
			}
			last = at
			crossings++
		}
	}
	if crossings < 2 {
		return 0, amp
	}
	return float64(crossings-1) * float64(rate) / (last - first), amp
}

// fixtureCases describes every committed fixture that decodes.
var fixtureCases = []struct {
	file      string
	format    Format
	rate      int
	channels  int
	minFrames int // equal to maxFrames for formats without codec delay
	maxFrames int
	freqs     []float64 // sine frequency per channel
	amp       float64   // expected amplitude of each channel
	freqTol   float64   // Hz
	ampTol    float64
}{
	{"sine_s16.wav", FormatWAV, 16000, 1, 3200, 3200, []float64{440}, 0.5, 0.05, 0.001},
	{"sine_u8.wav", FormatWAV, 8000, 1, 1600, 1600, []float64{440}, 0.5, 0.05, 0.005},
	{"sine_s24.wav", FormatWAV, 8000, 1, 1600, 1600, []float64{440}, 0.5, 0.05, 0.001},
	{"sine_s32.wav", FormatWAV, 8000, 1, 1600, 1600, []float64{440}, 0.5, 0.05, 0.001},
	{"sine_f32.wav", FormatWAV, 8000, 1, 1600, 1600, []float64{440}, 0.5, 0.05, 0.001},
	{"sine_f64.wav", FormatWAV, 8000, 1, 800, 800, []float64{440}, 0.5, 0.05, 0.001},
	{"sine_ulaw.wav", FormatWAV, 8000, 1, 1600, 1600, []float64{440}, 0.5, 0.05, 0.01},
	{"sine_alaw.wav", FormatWAV, 8000, 1, 1600, 1600, []float64{440}, 0.5, 0.05, 0.01},
	{"sine_s16_stereo.wav", FormatWAV, 8000, 2, 1600, 1600, []float64{440, 660}, 0.5, 0.05, 0.001},
	{"sine_s16_6ch.wav", FormatWAV, 8000, 6, 400, 400, []float64{300, 400, 500, 600, 700, 800}, 0.5, 0.05, 0.001},
	{"sine.flac", FormatFLAC, 16000, 1, 3200, 3200, []float64{440}, 0.5, 0.05, 0.001},
	{"sine_s24_stereo.flac", FormatFLAC, 8000, 2, 1600, 1600, []float64{440, 660}, 0.5, 0.05, 0.001},
	{"sine.ogg", FormatOggVorbis, 16000, 1, 3200, 3200, []float64{440}, 0.5, 0.5, 0.03},
	// MP3 adds the encoder delay and the Info frame (about 1,100 + 576
	// frames at 16 kHz, 1,100 + 1,152 at 44.1 kHz) and pads the end.
	{"sine_id3.mp3", FormatMP3, 16000, 1, 3200, 3200 + 3000, []float64{440}, 0.5, 0.5, 0.03},
	{"sine_stereo.mp3", FormatMP3, 44100, 2, 8820, 8820 + 3500, []float64{440, 660}, 0.5, 0.5, 0.03},
}

func TestDecodeFixtures(t *testing.T) {
	for _, tc := range fixtureCases {
		t.Run(tc.file, func(t *testing.T) {
			sig, err := Decode(bytes.NewReader(readFixture(t, tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			if sig.Rate != tc.rate || sig.Channels != tc.channels {
				t.Fatalf("rate %d, channels %d; want %d, %d", sig.Rate, sig.Channels, tc.rate, tc.channels)
			}
			if f := sig.Frames(); f < tc.minFrames || f > tc.maxFrames {
				t.Fatalf("%d frames, want %d to %d", f, tc.minFrames, tc.maxFrames)
			}
			if len(sig.Samples)%sig.Channels != 0 {
				t.Fatalf("%d samples is not a whole number of frames", len(sig.Samples))
			}
			for i, v := range sig.Samples {
				if !(v >= -1 && v <= 1) {
					t.Fatalf("sample %d = %v, outside [-1, 1]", i, v)
				}
			}
			for c, want := range tc.freqs {
				freq, amp := measureTone(sig.Samples, sig.Channels, c, sig.Rate)
				if math.Abs(freq-want) > tc.freqTol || math.Abs(amp-tc.amp) > tc.ampTol {
					t.Errorf("channel %d: %.3f Hz, amplitude %.4f; want %g ± %g Hz, %g ± %g",
						c, freq, amp, want, tc.freqTol, tc.amp, tc.ampTol)
				}
			}
		})
	}
}

// TestDecodeLosslessMatchesWAV checks that FLAC decodes to exactly the
// samples of the WAV file it was encoded from, and that Vorbis is close.
func TestDecodeLosslessMatchesWAV(t *testing.T) {
	ref, err := Decode(bytes.NewReader(readFixture(t, "sine_s16.wav")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file     string
		maxError float64
	}{
		{"sine.flac", 0},
		{"sine.ogg", 0.04}, // Vorbis at quality 2 measured 0.023
	} {
		t.Run(tc.file, func(t *testing.T) {
			sig, err := Decode(bytes.NewReader(readFixture(t, tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			if len(sig.Samples) != len(ref.Samples) {
				t.Fatalf("%d samples, WAV has %d", len(sig.Samples), len(ref.Samples))
			}
			worst := 0.0
			for i := range sig.Samples {
				worst = max(worst, math.Abs(float64(sig.Samples[i]-ref.Samples[i])))
			}
			if worst > tc.maxError {
				t.Errorf("largest difference from the WAV samples %g, want ≤ %g", worst, tc.maxError)
			}
		})
	}
}

// TestDecodeWAVEncodingsAgree compares the 8 kHz WAV fixtures with the
// 32-bit float one, which holds the same sox-synthesised sine before
// quantisation, within each encoding's quantisation step. sox shapes the
// last ~80 samples of a synth by its length, so only the first 700 frames
// (of 800 in the 0.1 s float64 fixture) are compared.
func TestDecodeWAVEncodingsAgree(t *testing.T) {
	ref, err := Decode(bytes.NewReader(readFixture(t, "sine_f32.wav")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file     string
		maxError float64
	}{
		{"sine_u8.wav", 1.0 / (1 << 7)},
		{"sine_s24.wav", 1.0 / (1 << 23)},
		{"sine_s32.wav", 1.0 / (1 << 24)}, // float32 keeps 24 bits
		{"sine_f64.wav", 1.0 / (1 << 24)},
		// Half of G.711's step at 0.5 of full scale, 1/32, and float32
		// rounding of the reference.
		{"sine_ulaw.wav", 1.0/64 + 1e-4},
		{"sine_alaw.wav", 1.0/64 + 1e-4},
	} {
		t.Run(tc.file, func(t *testing.T) {
			sig, err := Decode(bytes.NewReader(readFixture(t, tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			if sig.Rate != ref.Rate {
				t.Fatalf("%d Hz, want %d", sig.Rate, ref.Rate)
			}
			if sig.Frames() < 700 {
				t.Fatalf("%d frames, want at least 700", sig.Frames())
			}
			worst := 0.0
			for i, want := range ref.Samples[:700] {
				worst = max(worst, math.Abs(float64(sig.Samples[i]-want)))
			}
			if worst > tc.maxError {
				t.Errorf("largest difference from the float32 fixture %g, want ≤ %g", worst, tc.maxError)
			}
		})
	}
}

func TestDecodeOptionsLimits(t *testing.T) {
	wav := readFixture(t, "sine_s16.wav") // 0.2 s, 3200 samples
	flacUnknownLength := readFixture(t, "sine.flac")
	// STREAMINFO starts at byte 8: block sizes (4 bytes), frame sizes (6),
	// then rate (20 bits), channels (3), bits (5), total samples (36).
	// Zeroing the total makes the length unknown until decoded.
	flacUnknownLength = bytes.Clone(flacUnknownLength)
	flacUnknownLength[21] &^= 0x0F
	clear(flacUnknownLength[22:26])

	for _, tc := range []struct {
		name    string
		data    []byte
		opts    *DecodeOptions
		wantErr error
		wantMsg string
	}{
		{"nil options", wav, nil, nil, ""},
		{"zero options", wav, &DecodeOptions{}, nil, ""},
		{"duration at the limit", wav, &DecodeOptions{MaxDuration: 200 * time.Millisecond}, nil, ""},
		{"no limit", wav, &DecodeOptions{MaxDuration: -1}, nil, ""},
		{"header longer than limit", wav, &DecodeOptions{MaxDuration: 199 * time.Millisecond}, ErrTooLong, "header declares 200ms"},
		{"FLAC header longer than limit", readFixture(t, "sine.flac"), &DecodeOptions{MaxDuration: 100 * time.Millisecond}, ErrTooLong, "FLAC header declares"},
		{"FLAC stream longer than limit", flacUnknownLength, &DecodeOptions{MaxDuration: 100 * time.Millisecond}, ErrTooLong, "FLAC stream is longer"},
		{"FLAC unknown length within limit", flacUnknownLength, nil, nil, ""},
		{"samples at the limit", wav, &DecodeOptions{MaxSamples: 3200}, nil, ""},
		{"header has more samples than limit", wav, &DecodeOptions{MaxSamples: 3199}, ErrTooLong, "3199-sample maximum"},
		{"stream has more samples than limit", flacUnknownLength, &DecodeOptions{MaxSamples: 1000}, ErrTooLong, "1000-sample maximum"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sig, err := DecodeWithOptions(bytes.NewReader(tc.data), tc.opts)
			if tc.wantErr == nil {
				if err != nil {
					t.Fatal(err)
				}
				if sig.Frames() != 3200 {
					t.Fatalf("%d frames, want 3200", sig.Frames())
				}
				return
			}
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("error %v, want one wrapping %v and containing %q", err, tc.wantErr, tc.wantMsg)
			}
		})
	}
}
