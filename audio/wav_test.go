package audio

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	gowav "github.com/go-audio/wav"
)

// wavChunk returns a RIFF chunk: id, little-endian body size, body, and a
// zero pad byte when the size is odd.
func wavChunk(id string, body []byte) []byte {
	b := append([]byte(id), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...)
	b = append(b, body...)
	if len(body)%2 == 1 {
		b = append(b, 0)
	}
	return b
}

// wavChunkSized is wavChunk with a declared size that differs from the
// body (for truncated or streaming files); it adds no pad byte.
func wavChunkSized(id string, size uint32, body []byte) []byte {
	b := append([]byte(id), binary.LittleEndian.AppendUint32(nil, size)...)
	return append(b, body...)
}

// riffWAVE returns a RIFF/WAVE file made of chunks.
func riffWAVE(chunks ...[]byte) []byte {
	body := []byte("WAVE")
	for _, c := range chunks {
		body = append(body, c...)
	}
	return wavChunk("RIFF", body)
}

// fmtBody returns a 16-byte fmt chunk body (PCMWAVEFORMAT), with the
// byte rate and block align a correct writer computes.
func fmtBody(tag uint16, channels, rate, bits int) []byte {
	align := channels * ((bits + 7) / 8)
	b := binary.LittleEndian.AppendUint16(nil, tag)
	b = binary.LittleEndian.AppendUint16(b, uint16(channels))
	b = binary.LittleEndian.AppendUint32(b, uint32(rate))
	b = binary.LittleEndian.AppendUint32(b, uint32(rate*align))
	b = binary.LittleEndian.AppendUint16(b, uint16(align))
	return binary.LittleEndian.AppendUint16(b, uint16(bits))
}

// fmtExtensibleBody returns a 40-byte WAVE_FORMAT_EXTENSIBLE fmt body whose
// sub-format GUID carries subTag.
func fmtExtensibleBody(subTag uint16, channels, rate, bits, validBits int) []byte {
	b := fmtBody(tagExtensible, channels, rate, bits)
	b = binary.LittleEndian.AppendUint16(b, 22)
	b = binary.LittleEndian.AppendUint16(b, uint16(validBits))
	b = binary.LittleEndian.AppendUint32(b, 0) // channel mask
	b = binary.LittleEndian.AppendUint16(b, subTag)
	return append(b, ksSubformatTail...)
}

// monoWAV is a minimal RIFF file: fmt, then data.
func monoWAV(tag uint16, rate, bits int, data []byte) []byte {
	return riffWAVE(wavChunk("fmt ", fmtBody(tag, 1, rate, bits)), wavChunk("data", data))
}

func pcm16(v ...int16) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint16(b, uint16(x))
	}
	return b
}

func pcm24(v ...int32) []byte {
	var b []byte
	for _, x := range v {
		b = append(b, byte(x), byte(x>>8), byte(x>>16))
	}
	return b
}

func pcm32(v ...int32) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, uint32(x))
	}
	return b
}

func float32LEBytes(v ...float32) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

func float64LEBytes(v ...float64) []byte {
	var b []byte
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

// rf64WAVE returns an RF64 file whose RIFF and data sizes are 0xFFFFFFFF
// and whose real data size is in the ds64 chunk (EBU Tech 3306).
func rf64WAVE(fmtChunk []byte, data []byte) []byte {
	ds64 := binary.LittleEndian.AppendUint64(nil, 0) // RIFF size, unused
	ds64 = binary.LittleEndian.AppendUint64(ds64, uint64(len(data)))
	ds64 = binary.LittleEndian.AppendUint64(ds64, 0) // sample count
	ds64 = binary.LittleEndian.AppendUint32(ds64, 0) // table length
	b := []byte("RF64\xff\xff\xff\xffWAVE")
	b = append(b, wavChunk("ds64", ds64)...)
	b = append(b, fmtChunk...)
	return append(b, wavChunkSized("data", 0xFFFFFFFF, data)...)
}

const q16 = 1.0 / 32768 // one 16-bit step

var (
	inf = float32(math.Inf(1))
	nan = float32(math.NaN())
)

func TestDecodeWAVSamples(t *testing.T) {
	fmtS16 := wavChunk("fmt ", fmtBody(tagPCM, 1, 8000, 16))
	fmtU8 := wavChunk("fmt ", fmtBody(tagPCM, 1, 8000, 8))
	for _, tc := range []struct {
		name     string
		file     []byte
		rate     int
		channels int
		want     []float32
	}{
		{"8-bit unsigned edges", monoWAV(tagPCM, 8000, 8, []byte{0x00, 0x80, 0xFF, 0x01, 0x7F}), 8000, 1,
			[]float32{-1, 0, 127.0 / 128, -127.0 / 128, -1.0 / 128}},
		{"16-bit edges", monoWAV(tagPCM, 16000, 16, pcm16(-32768, 0, 32767, 1, -1)), 16000, 1,
			[]float32{-1, 0, 32767.0 / 32768, 1.0 / 32768, -1.0 / 32768}},
		{"24-bit edges", monoWAV(tagPCM, 48000, 24, pcm24(-1<<23, 0, 1<<23-1, 1, -1)), 48000, 1,
			[]float32{-1, 0, (1<<23 - 1) / float32(1<<23), 1.0 / (1 << 23), -1.0 / (1 << 23)}},
		// float32 has 24 bits of precision: 2^31-1 rounds to 2^31.
		{"32-bit edges", monoWAV(tagPCM, 44100, 32, pcm32(math.MinInt32, 0, math.MaxInt32, 1<<8, -1<<8)), 44100, 1,
			[]float32{-1, 0, 1, 1.0 / (1 << 23), -1.0 / (1 << 23)}},
		{"12-bit in a 16-bit container", monoWAV(tagPCM, 8000, 12, pcm16(0x7FF0, -0x8000, 0x0010)), 8000, 1,
			[]float32{0x7FF0 / 32768.0, -1, 16.0 / 32768}},
		{"float32 with NaN and Inf clamped", monoWAV(tagFloat, 8000, 32,
			float32LEBytes(0.25, -0.5, nan, inf, -inf, 1.5, -2, 1, -1)), 8000, 1,
			[]float32{0.25, -0.5, 0, 1, -1, 1, -1, 1, -1}},
		{"float64 with NaN and overflow clamped", monoWAV(tagFloat, 8000, 64,
			float64LEBytes(0.125, math.NaN(), 1e300, -1e300, math.Inf(-1), -0.75)), 8000, 1,
			[]float32{0.125, 0, 1, -1, -1, -0.75}},
		{"mu-law", monoWAV(tagMuLaw, 8000, 8, []byte{0x00, 0x80, 0xFF, 0x7F, 0x8F}), 8000, 1,
			[]float32{-32124.0 / 32768, 32124.0 / 32768, 0, 0, 16764.0 / 32768}},
		{"A-law", monoWAV(tagALaw, 8000, 8, []byte{0xD5, 0x55, 0xAA, 0x2A, 0x80}), 8000, 1,
			[]float32{8.0 / 32768, -8.0 / 32768, 32256.0 / 32768, -32256.0 / 32768, 5504.0 / 32768}},
		{"extensible PCM 16-bit stereo", riffWAVE(
			wavChunk("fmt ", fmtExtensibleBody(tagPCM, 2, 16000, 16, 16)),
			wavChunk("data", pcm16(-32768, 16384, 0, 32767))), 16000, 2,
			[]float32{-1, 0.5, 0, 32767.0 / 32768}},
		{"extensible PCM 24 valid bits in 32", riffWAVE(
			wavChunk("fmt ", fmtExtensibleBody(tagPCM, 1, 96000, 32, 24)),
			wavChunk("data", pcm32(0x7FFFFF00, -0x80000000, 0x100))), 96000, 1,
			[]float32{(1<<23 - 1) / float32(1<<23), -1, 1.0 / (1 << 23)}},
		{"extensible PCM 20 valid bits in 24", riffWAVE(
			wavChunk("fmt ", fmtExtensibleBody(tagPCM, 1, 96000, 24, 20)),
			wavChunk("data", pcm24(0x7FFFF0, -0x800000, 0x10))), 96000, 1,
			[]float32{0x7FFFF0 / float32(1<<23), -1, 16.0 / (1 << 23)}},
		{"extensible float32", riffWAVE(
			wavChunk("fmt ", fmtExtensibleBody(tagFloat, 1, 8000, 32, 32)),
			wavChunk("data", float32LEBytes(0.5, nan, -3))), 8000, 1,
			[]float32{0.5, 0, -1}},
		{"6 channels interleaved", riffWAVE(
			wavChunk("fmt ", fmtBody(tagPCM, 6, 8000, 16)),
			wavChunk("data", pcm16(1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6))), 8000, 6,
			[]float32{1 * q16, 2 * q16, 3 * q16, 4 * q16, 5 * q16, 6 * q16, -1 * q16, -2 * q16, -3 * q16, -4 * q16, -5 * q16, -6 * q16}},
		{"LIST and JUNK chunks, odd sized, before fmt and data", riffWAVE(
			wavChunk("LIST", []byte("INFOISFT\x03\x00\x00\x00ab\x00")),
			wavChunk("JUNK", []byte{1, 2, 3}),
			fmtU8,
			wavChunk("fact", pcm32(3)),
			wavChunk("data", []byte{0x00, 0x80, 0xFF})), 8000, 1,
			[]float32{-1, 0, 127.0 / 128}},
		{"odd data chunk: pad byte and later chunks are not audio", riffWAVE(
			fmtU8,
			wavChunk("data", []byte{0x80, 0xFF, 0x00}),
			wavChunk("LIST", []byte("INFOICMT\x04\x00\x00\x00abc\x00"))), 8000, 1,
			[]float32{0, 127.0 / 128, -1}},
		{"fmt chunk with cbSize and extra bytes", riffWAVE(
			wavChunk("fmt ", append(fmtBody(tagPCM, 1, 8000, 16), 4, 0, 9, 9, 9, 9)),
			wavChunk("data", pcm16(16384))), 8000, 1,
			[]float32{0.5}},
		{"data size past the end: truncated file keeps whole frames", riffWAVE(
			wavChunk("fmt ", fmtBody(tagPCM, 2, 8000, 16)),
			wavChunkSized("data", 1000, pcm16(16384, -16384, 8192, -8192, 77))), 8000, 2,
			[]float32{0.5, -0.5, 0.25, -0.25}},
		{"data size 0xFFFFFFFF: streaming writer, read to the end", riffWAVE(
			fmtS16,
			wavChunkSized("data", 0xFFFFFFFF, pcm16(16384, -16384, 8192))), 8000, 1,
			[]float32{0.5, -0.5, 0.25}},
		{"RF64 with ds64 size", rf64WAVE(fmtS16, pcm16(16384, -32768, 8192, 1)), 8000, 1,
			[]float32{0.5, -1, 0.25, 1.0 / 32768}},
		{"rate at the lower bound", monoWAV(tagPCM, MinRate, 16, pcm16(1)), MinRate, 1, []float32{1.0 / 32768}},
		{"rate at the upper bound", monoWAV(tagPCM, MaxRate, 16, pcm16(1)), MaxRate, 1, []float32{1.0 / 32768}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sig, err := Decode(bytes.NewReader(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if sig.Rate != tc.rate || sig.Channels != tc.channels {
				t.Fatalf("rate %d, channels %d; want %d, %d", sig.Rate, sig.Channels, tc.rate, tc.channels)
			}
			if len(sig.Samples) != len(tc.want) {
				t.Fatalf("samples %v, want %v", sig.Samples, tc.want)
			}
			for i, want := range tc.want {
				if sig.Samples[i] != want {
					t.Errorf("sample %d = %v (%b), want %v (%b)", i, sig.Samples[i], math.Float32bits(sig.Samples[i]), want, math.Float32bits(want))
				}
			}
		})
	}
}

// TestDecodeWAVMatchesGoAudio decodes the integer PCM fixtures with
// go-audio/wav, whose 16/24/32-bit integer decoding is right, and checks
// that this package returns exactly those integers scaled by 2^-(bits-1).
func TestDecodeWAVMatchesGoAudio(t *testing.T) {
	for _, file := range []string{"sine_s16.wav", "sine_s24.wav", "sine_s32.wav", "sine_s16_stereo.wav", "sine_s16_6ch.wav"} {
		t.Run(file, func(t *testing.T) {
			data := readFixture(t, file)
			d := gowav.NewDecoder(bytes.NewReader(data))
			buf, err := d.FullPCMBuffer()
			if err != nil {
				t.Fatal(err)
			}
			sig, err := Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if len(sig.Samples) != len(buf.Data) || sig.Channels != buf.Format.NumChannels || sig.Rate != buf.Format.SampleRate {
				t.Fatalf("%d samples, %d channels, %d Hz; go-audio: %d, %d, %d", len(sig.Samples), sig.Channels, sig.Rate,
					len(buf.Data), buf.Format.NumChannels, buf.Format.SampleRate)
			}
			scale := 1 / float64(int64(1)<<(buf.SourceBitDepth-1))
			for i, v := range buf.Data {
				if want := float32(float64(v) * scale); sig.Samples[i] != want {
					t.Fatalf("sample %d = %v, go-audio %d → %v", i, sig.Samples[i], v, want)
				}
			}
		})
	}
}
