package audio

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"time"
)

// ErrNoAudio means a file decoded to zero sample frames (for example a WAV
// file whose data chunk is empty). Decode reports it; Open does not, a
// Stream may simply be empty.
var ErrNoAudio = errors.New("audio: no audio")

// Limits on what Open and Decode accept.
const (
	// MinRate and MaxRate bound the sample rate, in Hz, of a decoded file;
	// anything outside is rejected as malformed. 1 kHz is below every
	// speech or telephony rate; 1 MHz is above every audio and ultrasonic
	// recording rate in use.
	MinRate = 1000
	MaxRate = 1_000_000

	// DefaultMaxDuration is the longest audio accepted when
	// DecodeOptions.MaxDuration is 0.
	DefaultMaxDuration = 4 * time.Hour

	// DefaultMaxSamples is the most samples (frames × channels) Decode holds
	// when DecodeOptions.MaxSamples is 0: 1 Gi float32 samples, 4 GiB.
	DefaultMaxSamples = 1 << 30
)

// DecodeOptions configures Open and Decode. The zero value, and a nil
// *DecodeOptions, mean the defaults.
type DecodeOptions struct {
	// MaxDuration is the longest audio accepted. Longer audio is an error
	// wrapping ErrTooLong, found from the header's declared length before
	// any samples are decoded where the format declares one, and while
	// decoding otherwise. 0 means DefaultMaxDuration (4 h); a negative value
	// means no limit, which suits Open (its memory does not grow with the
	// length) but not Decode.
	MaxDuration time.Duration

	// MaxSamples bounds the memory Decode uses: a file with more samples
	// (frames × channels) is an error wrapping ErrTooLong. It stops
	// decompression bombs, such as a small FLAC file declaring eight
	// channels at 655 kHz, that pass MaxDuration. Open ignores it. 0 means
	// DefaultMaxSamples.
	MaxSamples int64
}

// maxDuration returns the duration limit, or a negative value for none.
func (o *DecodeOptions) maxDuration() time.Duration {
	if o == nil || o.MaxDuration == 0 {
		return DefaultMaxDuration
	}
	return o.MaxDuration
}

func (o *DecodeOptions) maxSamples() int64 {
	if o == nil || o.MaxSamples <= 0 {
		return DefaultMaxSamples
	}
	return o.MaxSamples
}

// Decode reads a whole audio file into memory, with the default options.
// See DecodeWithOptions.
func Decode(r io.ReadSeeker) (*Signal, error) {
	return DecodeWithOptions(r, nil)
}

// DecodeWithOptions reads a whole audio file into memory. The format is
// sniffed from the bytes (see Sniff); decoding starts at r's current
// offset. A nil opts means the defaults.
//
// It is Open followed by reading the Stream to its end, so every rule of
// Open applies. In addition, a file with no sample frames is an error
// wrapping ErrNoAudio, and one with more than opts.MaxSamples samples an
// error wrapping ErrTooLong.
func DecodeWithOptions(r io.ReadSeeker, opts *DecodeOptions) (*Signal, error) {
	st, format, err := open(r, opts)
	if err != nil {
		return nil, err
	}
	ch := st.Channels()
	maxSamples := opts.maxSamples()
	if st.declared >= 0 && st.declared > maxSamples/int64(ch) {
		return nil, fmt.Errorf("%w: %s declares %d frames × %d channels, more than the %d-sample maximum",
			ErrTooLong, format, st.declared, ch, maxSamples)
	}

	// Allocate what the header declares once, so the samples are not
	// copied while growing. A declared length is trusted up to
	// untrustedPrealloc samples only, unless the bytes are known to be in
	// the file (uncompressed WAV).
	want := max(st.declared, 0)*int64(ch) + int64(ch)
	if !st.trusted {
		want = min(want, untrustedPrealloc)
	}
	samples := make([]float32, 0, min(want, maxSamples+int64(ch)))

	chunk := max(ch, readChunk/ch*ch)
	for {
		if cap(samples)-len(samples) < ch {
			samples = slices.Grow(samples, chunk)
		}
		dst := samples[len(samples):cap(samples)]
		n, err := st.Read(dst[:len(dst)/ch*ch])
		samples = samples[:len(samples)+n]
		if int64(len(samples)) > maxSamples {
			return nil, fmt.Errorf("%w: %s has more than the %d-sample maximum (%d channels)",
				ErrTooLong, format, maxSamples, ch)
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if len(samples) == 0 {
		return nil, fmt.Errorf("%w: the %s file holds no sample frames", ErrNoAudio, format)
	}
	return &Signal{Rate: st.Rate(), Channels: ch, Samples: samples}, nil
}

const (
	// readChunk is the number of samples Decode asks a Stream for when the
	// declared length is used up or unknown.
	readChunk = 1 << 16
	// untrustedPrealloc caps the samples allocated up front from a length
	// that a compressed format's header declares (64 MiB of float32).
	untrustedPrealloc = 1 << 24
)

// formatError is a malformed or unsupported input. It wraps ErrFormat and,
// when there is one, the error that revealed the problem.
type formatError struct {
	msg   string
	cause error
}

// formatErrorf returns a *formatError whose message is "audio: " followed
// by the formatted text; a %w verb in it names the cause.
func formatErrorf(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &formatError{msg: err.Error(), cause: errors.Unwrap(err)}
}

func (e *formatError) Error() string { return "audio: " + e.msg }

func (e *formatError) Unwrap() []error {
	if e.cause == nil {
		return []error{ErrFormat}
	}
	return []error{ErrFormat, e.cause}
}

// recoverDecoder, deferred around a call into a third-party decoder,
// turns a panic on malformed input into an error wrapping ErrFormat that
// names the format, so that one corrupt file cannot bring a batch job
// down. Each use says which panic was seen while fuzzing.
func recoverDecoder(f Format, err *error) {
	if p := recover(); p != nil {
		*err = formatErrorf("%s: decoder failed on malformed input: %v", f, p)
	}
}
