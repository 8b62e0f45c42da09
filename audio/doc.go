// Package audio turns audio files into what the speech models read: it
// decodes WAV, FLAC, Ogg Vorbis and MP3 into float32 samples, changes their
// rate, downmixes them to mono, computes log-mel filterbank features with
// normalisation and augmentation, and cuts long recordings into segments.
//
// It uses only the standard library and pure-Go codecs: no cgo, and never
// gorgonia.
//
// # Samples
//
// A Signal holds a whole recording in memory: float32 samples in [-1, 1],
// interleaved by channel, so Samples[f*Channels+c] is channel c of frame f
// and len(Samples) = Frames()·Channels. A Stream delivers the same
// interleaved samples piece by piece, so that hours of audio never have to
// be one slice; Signal.Stream serves a Signal as a Stream.
//
// # Decoding
//
// Decode reads a whole file into a Signal. Open returns a Stream that
// decodes as it is read, in memory independent of the file's length. Both
// read from an io.ReadSeeker starting at its current offset and sniff the
// format from the bytes, never from a file name (Sniff exposes the
// sniffer):
//
//	Format      magic bytes                          decoder
//	WAV         "RIFF"/"RF64"/"BW64" … "WAVE"        this package
//	FLAC        "fLaC", after optional ID3v2 tags    github.com/mewkiz/flac
//	Ogg Vorbis  "OggS", first packet "\x01vorbis"    github.com/jfreymuth/oggvorbis
//	MP3         ID3v2 tag or MPEG Layer III sync     github.com/hajimehoshi/go-mp3
//
// WAV files may hold linear PCM of 1 to 32 bits (unsigned 8-bit, signed
// otherwise, left-justified in 1- to 4-byte containers), IEEE float of 32
// or 64 bits, or G.711 A-law or µ-law, in a plain or WAVE_FORMAT_EXTENSIBLE
// fmt chunk, with any number of channels. Chunks other than fmt, data and
// ds64 (LIST, fact, bext, JUNK, …) may appear anywhere and are skipped,
// odd-sized ones with their pad byte. go-audio/wav is not used to parse:
// it allocates what untrusted chunk headers claim and reads neither float
// nor G.711 data; the tests use it as a reference for integer PCM.
//
// Recognised but unsupported inputs fail with an error wrapping ErrFormat
// that says what they are: Ogg Opus, FLAC in Ogg, MPEG Layer I/II and
// MPEG-2.5, free-format MP3, compressed WAV (ADPCM, GSM, …), AIFF, MP4/M4A,
// Matroska, images and text ("looks like text, not audio: …").
//
// Sample values. An integer sample x in a b-bit container becomes
// x/2^(b−1) (WAV stores 12- or 20-bit samples left-justified, so they scale
// with their container), so the most negative code is exactly −1 and the
// most positive 1−2^(1−b):
//
//	8-bit (unsigned u)  (u−128)/128   0x00 → −1, 0x80 → 0, 0xFF → 127/128
//	16-bit              x/32768       −32768 → −1, 32767 → 32767/32768
//	24-bit              x/2^23
//	32-bit              x/2^31        float32 keeps 24 bits: 2^31−1 → 1
//	A-law, µ-law        ITU-T G.711 16-bit value/32768 (at most ±32256, ±32124)
//	FLAC                x/2^(b−1), b the stream's bits per sample
//	MP3                 go-mp3's 16-bit output/32768
//	float, Vorbis       as stored, clamped as below
//
// Policies, each chosen so that a batch job over thousands of files gets
// either usable audio or one clear error per file:
//
//   - Out-of-range floats are clamped, not rejected: NaN becomes 0, and
//     values beyond ±1, ±Inf included, become ±1. Float WAV files that
//     clipped in processing are common, and one bad sample should not
//     lose a recording.
//   - Sample rates outside [MinRate, MaxRate] = [1 kHz, 1 MHz] and zero
//     channels are malformed headers (ErrFormat).
//   - A file without sample frames (an empty WAV data chunk, say) is an
//     error wrapping ErrNoAudio from Decode; Open returns a Stream that
//     reports io.EOF at once.
//   - A WAV data chunk that declares more bytes than the file holds (a
//     recorder that was cut off), or the streaming size 0xFFFFFFFF, is
//     read to the end of the file without error; a partial last frame is
//     dropped. The data chunk's own size is honoured otherwise, so chunks
//     after it are never taken for audio.
//   - DecodeOptions.MaxDuration (default 4 h) bounds the length: it is
//     checked against the header before decoding where the format declares
//     a length (WAV data size, FLAC STREAMINFO, the last Ogg granule, the
//     MP3 frame count) and while reading in every case, and exceeding it is
//     an error wrapping ErrTooLong. DecodeOptions.MaxSamples (default 2^30,
//     4 GiB of float32) bounds Decode's memory the same way. No buffer is
//     sized from a header without a cap: a declared length is trusted in
//     full only for WAV, whose bytes are checked to be in the file.
//   - Corrupt input never panics. go-mp3 and oggvorbis panic on some
//     malformed data (found by fuzzing); those calls recover into errors
//     wrapping ErrFormat.
//   - When the reader itself fails, its error is returned, wrapped, and not
//     reported as ErrFormat.
//   - MP3 output keeps the encoder delay (about 1,100 samples) and the
//     silent Xing/Info frame at the start: go-mp3 does not trim them.
//
// # Resampling
//
// Resample, ResampleStream and Resampler change the sample rate. (Section
// to be written.)
//
// # Features
//
// Fbank computes log-mel filterbank features; CMVN and SpecAugment
// normalise and augment them. (Section to be written.)
//
// # Segmentation
//
// Segmenter cuts long recordings into pieces the models can read. (Section
// to be written.)
//
// # References
//
//   - IBM and Microsoft, Multimedia Programming Interface and Data
//     Specifications 1.0, 1991: RIFF and the WAVE form.
//   - Microsoft, WAVEFORMATEXTENSIBLE (mmreg.h, ksmedia.h); RFC 2361, WAVE
//     and AVI Codec Registries.
//   - EBU Tech 3306, MBWF/RF64: an extended file format for audio, 2009.
//   - ITU-T G.711, Pulse code modulation of voice frequencies, 1988.
//   - RFC 9639, Free Lossless Audio Codec (FLAC), 2024.
//   - RFC 3533, The Ogg Encapsulation Format; Xiph.Org, Vorbis I
//     specification.
//   - ISO/IEC 11172-3 and 13818-3, MPEG-1 and MPEG-2 audio.
//   - ID3 tag version 2.4.0, Main structure, id3.org, 2000.
package audio
