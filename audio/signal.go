package audio

import (
	"errors"
	"io"
	"time"
)

// Sentinel errors that callers test with errors.Is.
var (
	// ErrFormat means the bytes are not audio in a format this package reads.
	ErrFormat = errors.New("audio: unknown format")
	// ErrTooLong means a decoded file is longer than the configured maximum.
	ErrTooLong = errors.New("audio: too long")
)

// Signal is decoded PCM audio held in memory.
//
// Samples are float32 in [-1, 1], interleaved by channel:
// Samples[f*Channels+c] is channel c of frame f, so len(Samples) is
// Frames()*Channels.
type Signal struct {
	Rate     int // frames per second, > 0
	Channels int // > 0
	Samples  []float32
}

// Frames returns the number of sample frames (samples per channel).
func (s *Signal) Frames() int {
	if s.Channels <= 0 {
		return 0
	}
	return len(s.Samples) / s.Channels
}

// Duration returns the length of the signal.
func (s *Signal) Duration() time.Duration {
	if s.Rate <= 0 {
		return 0
	}
	return time.Duration(float64(s.Frames()) / float64(s.Rate) * float64(time.Second))
}

// Stream is audio decoded incrementally, so that hours of audio never need
// to sit in one slice.
//
// Read fills dst with interleaved float32 samples in [-1, 1] and returns the
// number of samples written, always a multiple of Channels(). At the end of
// the stream it returns 0, io.EOF. len(dst) must be at least Channels().
type Stream interface {
	Rate() int
	Channels() int
	Read(dst []float32) (int, error)
}

// Stream returns a Stream that reads the signal's samples from the start.
func (s *Signal) Stream() Stream { return &signalStream{sig: s} }

// signalStream serves a Signal through the Stream interface.
type signalStream struct {
	sig *Signal
	pos int // next sample index
}

func (r *signalStream) Rate() int     { return r.sig.Rate }
func (r *signalStream) Channels() int { return r.sig.Channels }

func (r *signalStream) Read(dst []float32) (int, error) {
	ch := r.sig.Channels
	if r.pos >= len(r.sig.Samples) {
		return 0, io.EOF
	}
	n := len(dst) / ch * ch
	n = copy(dst[:n], r.sig.Samples[r.pos:])
	r.pos += n
	return n, nil
}
