package audio

import (
	"errors"
	"fmt"
	"io"
)

// Downmix returns s mixed down to one channel: each output sample is the
// mean of the frame's channels, so full-scale input stays in [-1, 1].
// It returns s itself when s is already mono.
func Downmix(s *Signal) (*Signal, error) {
	if err := validateSignal(s); err != nil {
		return nil, fmt.Errorf("audio: downmix: %w", err)
	}
	if s.Channels == 1 {
		return s, nil
	}
	out := make([]float32, s.Frames())
	mixDown(out, s.Samples, s.Channels)
	return &Signal{Rate: s.Rate, Channels: 1, Samples: out}, nil
}

// mixDown writes into dst the mean of each of the len(dst) interleaved
// ch-channel frames of src.
func mixDown(dst, src []float32, ch int) {
	scale := 1 / float32(ch)
	for f := range dst {
		frame := src[f*ch : (f+1)*ch]
		var sum float32
		for _, v := range frame {
			sum += v
		}
		dst[f] = sum * scale
	}
}

// DownmixStream returns a mono Stream that reads s and mixes each frame
// down to the mean of its channels. It returns s itself when s is already
// mono.
func DownmixStream(s Stream) (Stream, error) {
	if err := validateStream(s); err != nil {
		return nil, fmt.Errorf("audio: downmix: %w", err)
	}
	if s.Channels() == 1 {
		return s, nil
	}
	return &downmixStream{src: s}, nil
}

// downmixStream is the Stream returned by DownmixStream.
type downmixStream struct {
	src Stream
	buf []float32 // interleaved frames read from src
}

func (d *downmixStream) Rate() int     { return d.src.Rate() }
func (d *downmixStream) Channels() int { return 1 }

func (d *downmixStream) Read(dst []float32) (int, error) {
	if len(dst) == 0 {
		return 0, nil
	}
	ch := d.src.Channels()
	if cap(d.buf) < len(dst)*ch {
		d.buf = make([]float32, len(dst)*ch)
	}
	n, err := d.src.Read(d.buf[:len(dst)*ch])
	if n%ch != 0 {
		return 0, fmt.Errorf("audio: downmix: source returned %d samples, not whole %d-channel frames", n, ch)
	}
	mixDown(dst[:n/ch], d.buf[:n], ch)
	if n > 0 && errors.Is(err, io.EOF) {
		err = nil // report EOF on the next call, with 0 samples
	}
	return n / ch, err
}

// validateSignal reports why s cannot be processed, or nil.
func validateSignal(s *Signal) error {
	switch {
	case s == nil:
		return errors.New("nil signal")
	case s.Rate <= 0:
		return fmt.Errorf("sample rate %d must be positive", s.Rate)
	case s.Channels <= 0:
		return fmt.Errorf("channel count %d must be positive", s.Channels)
	case len(s.Samples)%s.Channels != 0:
		return fmt.Errorf("%d samples is not a whole number of %d-channel frames", len(s.Samples), s.Channels)
	}
	return nil
}

// validateStream reports why s cannot be processed, or nil.
func validateStream(s Stream) error {
	switch {
	case s == nil:
		return errors.New("nil stream")
	case s.Rate() <= 0:
		return fmt.Errorf("stream sample rate %d must be positive", s.Rate())
	case s.Channels() <= 0:
		return fmt.Errorf("stream channel count %d must be positive", s.Channels())
	}
	return nil
}
