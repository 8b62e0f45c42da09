package audio

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
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
	// 0.02 s seeds for FuzzSniff.
	{"tiny.flac", FormatFLAC, 16000, 1, 320, 320, []float64{440}, 0.5, 0.5, 0.001},
	{"tiny.ogg", FormatOggVorbis, 8000, 1, 160, 160, []float64{440}, 0.5, 5, 0.1},
	// At 8 kbit/s, three frames hold mostly encoder delay: no tone check.
	{"tiny.mp3", FormatMP3, 16000, 1, 320, 320 + 3000, nil, 0, 0, 0},
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

// oggPage returns an Ogg page header (RFC 3533) holding one packet; the
// checksum is left zero, which sniffing does not look at.
func oggPage(packet []byte) []byte {
	b := []byte("OggS\x00\x02")             // version 0, beginning of stream
	b = append(b, make([]byte, 8+4+4+4)...) // granule, serial, sequence, CRC
	b = append(b, 1, byte(len(packet)))     // one lacing value
	return append(b, packet...)
}

// id3Tag returns an ID3v2 tag with a body of n zero bytes; with footer
// it is a v2.4 tag with the footer flag set.
func id3Tag(n int, footer bool) []byte {
	b := []byte{'I', 'D', '3', 3, 0, 0, byte(n >> 21 & 0x7F), byte(n >> 14 & 0x7F), byte(n >> 7 & 0x7F), byte(n & 0x7F)}
	if footer {
		b[3], b[5] = 4, 0x10
	}
	b = append(b, make([]byte, n)...)
	if footer {
		b = append(b, "3DI\x04\x00\x10"...)
		b = append(b, b[6:10]...)
	}
	return b
}

func TestDecodeBadInput(t *testing.T) {
	fmtS16 := wavChunk("fmt ", fmtBody(tagPCM, 1, 16000, 16))
	data := wavChunk("data", pcm16(1, 2, 3))
	withFmt := func(body []byte) []byte { return riffWAVE(wavChunk("fmt ", body), data) }
	badGUID := fmtExtensibleBody(tagPCM, 1, 8000, 16, 16)
	badGUID[30] = 0x99
	for _, tc := range []struct {
		name    string
		file    []byte
		wantErr error
		wantMsg string
	}{
		{"empty file", nil, ErrFormat, "empty input"},
		{"text file named .wav", []byte("This is not audio.\nJust some notes.\n"), ErrFormat, `looks like text, not audio: "This is not audio.`},
		{"binary garbage", []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, ErrFormat, "first bytes 00 01 02 03"},
		{"RIFF header truncated", []byte("RIFF\x24\x00\x00\x00WAV"), ErrFormat, "RIFF header truncated to 11 bytes"},
		{"chunk header truncated", append(riffWAVE(), "fm"...), ErrFormat, "chunk header truncated (2 of 8 bytes)"},
		{"fmt chunk truncated", riffWAVE(wavChunkSized("fmt ", 16, fmtBody(tagPCM, 1, 8000, 16)[:10])), ErrFormat, "fmt chunk truncated (10 of 16 bytes)"},
		{"fmt chunk too small", riffWAVE(wavChunk("fmt ", fmtBody(tagPCM, 1, 8000, 16)[:14]), data), ErrFormat, "fmt chunk of 14 bytes, need at least 16"},
		{"no chunks", riffWAVE(), ErrFormat, "no fmt chunk"},
		{"no data chunk", riffWAVE(fmtS16, wavChunk("LIST", []byte("INFO"))), ErrFormat, "no data chunk"},
		{"data before fmt", riffWAVE(data, fmtS16), ErrFormat, "data chunk before the fmt chunk"},
		{"zero-length data chunk", riffWAVE(fmtS16, wavChunk("data", nil)), ErrNoAudio, "WAV file holds no sample frames"},
		{"data shorter than one frame", riffWAVE(wavChunk("fmt ", fmtBody(tagPCM, 2, 8000, 16)), wavChunk("data", pcm16(5))), ErrNoAudio, "no sample frames"},
		{"0 Hz", withFmt(fmtBody(tagPCM, 1, 0, 16)), ErrFormat, "sample rate 0 Hz outside the supported [1000, 1000000] Hz"},
		{"999 Hz", withFmt(fmtBody(tagPCM, 1, 999, 16)), ErrFormat, "sample rate 999 Hz"},
		{"absurd rate", withFmt(fmtBody(tagPCM, 1, 4_000_000_000, 16)), ErrFormat, "sample rate 4000000000 Hz"},
		{"just above 1 MHz", withFmt(fmtBody(tagPCM, 1, 1_000_001, 16)), ErrFormat, "sample rate 1000001 Hz"},
		{"0 channels", withFmt(fmtBody(tagPCM, 0, 8000, 16)), ErrFormat, "fmt chunk declares 0 channels"},
		{"PCM with 0 bits", withFmt(fmtBody(tagPCM, 1, 8000, 0)), ErrFormat, "PCM with 0 bits per sample"},
		{"PCM with 40 bits", withFmt(fmtBody(tagPCM, 1, 8000, 40)), ErrFormat, "PCM with 40 bits per sample"},
		{"16-bit float", withFmt(fmtBody(tagFloat, 1, 8000, 16)), ErrFormat, "IEEE float with 16 bits per sample"},
		{"16-bit mu-law", withFmt(fmtBody(tagMuLaw, 1, 8000, 16)), ErrFormat, "G.711 with 16 bits per sample"},
		{"ADPCM", withFmt(fmtBody(0x0002, 1, 8000, 4)), ErrFormat, "format tag 0x0002 (Microsoft ADPCM) is not supported"},
		{"unknown tag", withFmt(fmtBody(0x1234, 1, 8000, 16)), ErrFormat, "format tag 0x1234 (unknown)"},
		{"extensible with unknown GUID", withFmt(badGUID), ErrFormat, "unknown sub-format GUID"},
		{"extensible fmt too short", withFmt(fmtBody(tagExtensible, 1, 8000, 16)), ErrFormat, "WAVE_FORMAT_EXTENSIBLE fmt chunk of 16 bytes, need 40"},
		{"RIFF AVI", wavChunk("RIFF", []byte("AVI LIST")), ErrFormat, `RIFF file of type "AVI ", not WAVE`},
		{"Ogg Opus", oggPage([]byte("OpusHead\x01\x01\x38\x01\x80\xbb\x00\x00\x00\x00\x00")), ErrFormat, "Ogg Opus is not supported"},
		{"FLAC in Ogg", readFixture(t, "sine_flac.oga"), ErrFormat, "FLAC in Ogg is not supported"},
		{"Ogg with unknown codec", oggPage([]byte("\x80theora\x03\x02")), ErrFormat, "Ogg stream with an unsupported codec"},
		{"MPEG-1 Layer II", []byte{0xFF, 0xFD, 0x90, 0x44, 0, 0, 0, 0}, ErrFormat, "MPEG-1 Layer II audio is not supported"},
		{"MPEG-2.5 Layer III", readFixture(t, "mpeg25.mp3"), ErrFormat, "MPEG-2.5 Layer III audio is not supported"},
		{"free-format MP3", []byte{0xFF, 0xFB, 0x00, 0x44, 0, 0, 0, 0}, ErrFormat, "free-format bitrate MPEG-1 Layer III"},
		{"AIFF", []byte("FORM\x00\x00\x10\x00AIFFCOMM"), ErrFormat, "looks like AIFF (not supported)"},
		{"M4A", []byte("\x00\x00\x00\x20ftypM4A \x00\x00\x00\x00"), ErrFormat, "looks like MP4/M4A (not supported)"},
		{"PNG image", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"), ErrFormat, "looks like a PNG image"},
		{"ID3 tag and nothing else", id3Tag(20, false), ErrFormat, "ID3v2 tag (30 bytes) with no audio after it"},
		{"FLAC truncated in STREAMINFO", readFixture(t, "sine.flac")[:30], ErrFormat, "FLAC: "},
		{"Ogg Vorbis truncated in the headers", readFixture(t, "sine.ogg")[:200], ErrFormat, "Ogg Vorbis: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sig, err := Decode(bytes.NewReader(tc.file))
			if !errors.Is(err, tc.wantErr) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("got %v, %v; want an error wrapping %v and containing %q", sig, err, tc.wantErr, tc.wantMsg)
			}
			if !strings.HasPrefix(err.Error(), "audio: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

// TestDecodeID3Tags checks that ID3v2 tags in front of FLAC and MP3 are
// skipped, and that MP3 needs none.
func TestDecodeID3Tags(t *testing.T) {
	flacFile := readFixture(t, "sine.flac")
	mp3File := readFixture(t, "sine_id3.mp3")
	tagLen, ok := id3v2Size(mp3File)
	if !ok {
		t.Fatal("sine_id3.mp3 does not start with an ID3v2 tag")
	}
	for _, tc := range []struct {
		name   string
		file   []byte
		format Format
	}{
		{"FLAC behind an ID3v2.3 tag", slices.Concat(id3Tag(100, false), flacFile), FormatFLAC},
		{"FLAC behind two tags, one with a footer", slices.Concat(id3Tag(5000, true), id3Tag(3, false), flacFile), FormatFLAC},
		{"MP3 without its tag", mp3File[tagLen:], FormatMP3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, format, err := Open(bytes.NewReader(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if format != tc.format {
				t.Fatalf("format %v, want %v", format, tc.format)
			}
			got, err := readStream(st, 4096)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Decode(bytes.NewReader(mp3File))
			if tc.format == FormatFLAC {
				want, err = Decode(bytes.NewReader(flacFile))
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want.Samples) {
				t.Fatalf("%d samples differ from the untagged file's %d", len(got), len(want.Samples))
			}
		})
	}
}
