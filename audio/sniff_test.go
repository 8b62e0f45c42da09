package audio

import (
	"bytes"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSniff(t *testing.T) {
	mp3File := readFixture(t, "sine_id3.mp3")
	tagLen, _ := id3v2Size(mp3File)
	bareMP3 := mp3File[tagLen:]
	frame2 := 72*32000/16000 + int(bareMP3[2]>>1&1) // MPEG-2 Layer III, 32 kbit/s, 16 kHz
	brokenMP3 := slices.Clone(bareMP3[:frame2+8])
	brokenMP3[frame2] = 'x'
	for _, tc := range []struct {
		name    string
		header  []byte
		want    Format
		wantMsg string // error text when want is FormatUnknown
	}{
		{"WAV", readFixture(t, "sine_s16.wav"), FormatWAV, ""},
		{"RF64", []byte("RF64\xff\xff\xff\xffWAVEds64"), FormatWAV, ""},
		{"BW64", []byte("BW64\xff\xff\xff\xffWAVEds64"), FormatWAV, ""},
		{"FLAC", readFixture(t, "sine.flac"), FormatFLAC, ""},
		{"FLAC behind ID3v2", slices.Concat(id3Tag(40, true), readFixture(t, "sine.flac")), FormatFLAC, ""},
		{"Ogg Vorbis", readFixture(t, "sine.ogg"), FormatOggVorbis, ""},
		{"MP3 behind ID3v2", mp3File, FormatMP3, ""},
		{"MP3 frame sync, two frames checked", bareMP3, FormatMP3, ""},
		{"MP3 single frame header", bareMP3[:4], FormatMP3, ""},
		{"MPEG-1 stereo MP3", readFixture(t, "sine_stereo.mp3"), FormatMP3, ""},
		{"ID3v2 tag longer than the header", id3Tag(SniffLen, false)[:SniffLen], FormatMP3, ""},
		{"MP3 frame not followed by another", brokenMP3, FormatUnknown, "not followed by another at byte"},
		{"short RIFF", []byte("RIFF\x00\x00"), FormatUnknown, "RIFF header truncated to 6 bytes"},
		{"short Ogg", []byte("OggS\x00\x02"), FormatUnknown, "Ogg page header truncated to 6 bytes"},
		{"Ogg first packet cut", oggPage([]byte("\x01vorbis"))[:30], FormatUnknown, "Ogg first packet truncated"},
		{"invalid UTF-8", []byte("\xc3\x28 abc"), FormatUnknown, "first bytes c3 28"},
		{"text", []byte("RIFF is a container, WAVE a form type."), FormatUnknown, "looks like text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Sniff(tc.header[:min(len(tc.header), SniffLen)])
			if tc.want != FormatUnknown {
				if err != nil || got != tc.want {
					t.Fatalf("Sniff = %v, %v; want %v", got, err, tc.want)
				}
				return
			}
			if got != FormatUnknown || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.wantMsg) {
				t.Fatalf("Sniff = %v, %v; want an ErrFormat error containing %q", got, err, tc.wantMsg)
			}
		})
	}
}

func TestFormatString(t *testing.T) {
	for f, want := range map[Format]string{
		FormatUnknown: "unknown", FormatWAV: "WAV", FormatFLAC: "FLAC",
		FormatOggVorbis: "Ogg Vorbis", FormatMP3: "MP3", Format(42): "Format(42)",
	} {
		if got := f.String(); got != want {
			t.Errorf("Format(%d).String() = %q, want %q", int(f), got, want)
		}
	}
}

// fuzzOptions keep every fuzzed input quick to decode or reject: a few
// mutated header bits can declare hours of audio, and the fuzzer
// minimises slow inputs very slowly.
var fuzzOptions = &DecodeOptions{MaxDuration: 10 * time.Second, MaxSamples: 1 << 16}

// checkDecoded fails unless sig is a well-formed non-empty Signal.
func checkDecoded(t *testing.T, sig *Signal) {
	t.Helper()
	if sig.Rate < MinRate || sig.Rate > MaxRate || sig.Channels < 1 || len(sig.Samples) == 0 || len(sig.Samples)%sig.Channels != 0 {
		t.Fatalf("malformed signal: %d Hz, %d channels, %d samples", sig.Rate, sig.Channels, len(sig.Samples))
	}
	for i, v := range sig.Samples {
		if !(v >= -1 && v <= 1) {
			t.Fatalf("sample %d = %v, outside [-1, 1]", i, v)
		}
	}
}

// FuzzSniff sniffs arbitrary bytes and decodes whatever the sniffer
// accepts. Sniff and Decode must agree, never panic, and every error must
// be one of the package's sentinels.
//
// Compressed inputs are slow to minimise (the Ogg Vorbis seed is 2.4 KB);
// -fuzzminimizetime=5s keeps the fuzzer exploring instead.
func FuzzSniff(f *testing.F) {
	// Short seeds: the fuzzer minimises long inputs slowly, and a few
	// hundred bytes of each format reach its decoder.
	for _, name := range []string{"sine_s16.wav", "sine_s16_6ch.wav", "sine_f32.wav", "tiny.flac", "tiny.mp3", "tiny.ogg", "sine_flac.oga"} {
		b := readFixture(f, name)
		if filepath.Ext(name) == ".wav" {
			b = b[:400]
		}
		f.Add(b)
	}
	for _, seed := range [][]byte{
		nil, []byte("hello.wav is text"), id3Tag(4, true),
		oggPage([]byte("OpusHead\x01\x01")), oggPage([]byte("\x01vorbis\x00\x00\x00\x00\x01")),
		{0xFF, 0xFD, 0x90, 0x44}, {0xFF, 0xFB, 0x90, 0x44}, []byte("fLaC\x00\x00\x00\x22"),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		format, sniffErr := Sniff(b[:min(len(b), SniffLen)])
		if (sniffErr == nil) == (format == FormatUnknown) || sniffErr != nil && !errors.Is(sniffErr, ErrFormat) {
			t.Fatalf("Sniff = %v, %v", format, sniffErr)
		}
		sig, err := DecodeWithOptions(bytes.NewReader(b), fuzzOptions)
		if err != nil {
			if !errors.Is(err, ErrFormat) && !errors.Is(err, ErrNoAudio) && !errors.Is(err, ErrTooLong) {
				t.Fatalf("Decode error wraps no sentinel: %v", err)
			}
			return
		}
		checkDecoded(t, sig)
		if full, err := Sniff(b); err != nil {
			t.Fatalf("Decode succeeded where Sniff of the whole input fails: %v", err)
		} else if _, opened, _ := OpenWithOptions(bytes.NewReader(b), fuzzOptions); opened != full {
			t.Fatalf("Open sniffed %v, Sniff %v", opened, full)
		}
	})
}
