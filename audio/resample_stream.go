package audio

import (
	"errors"
	"fmt"
	"io"
)

// resampleChunk is how many input frames a resampling Stream reads at once.
const resampleChunk = 4096

// ResampleStream returns a Stream that reads s and converts it to the given
// rate, in bounded memory (a chunk of input and the filter's history). Its
// samples are identical to Resample applied to all of s. It returns s
// itself when s is already at that rate.
func ResampleStream(s Stream, rate int) (Stream, error) {
	if err := validateStream(s); err != nil {
		return nil, fmt.Errorf("audio: resample: %w", err)
	}
	if s.Rate() == rate {
		return s, nil
	}
	r, err := NewResampler(s.Rate(), rate, s.Channels())
	if err != nil {
		return nil, err
	}
	return &resampleStream{src: s, r: r, in: make([]float32, resampleChunk*s.Channels())}, nil
}

// resampleStream is the Stream returned by ResampleStream.
type resampleStream struct {
	src   Stream
	r     *Resampler
	in    []float32 // read buffer for src
	out   []float32 // resampled samples not yet returned; out[pos:] is pending
	pos   int
	done  bool  // src reached EOF and the resampler was flushed
	err   error // sticky error from src
	empty int   // consecutive reads that returned nothing
}

// maxEmptyReads is how many times in a row a Stream may return 0, nil
// before a reader gives up with io.ErrNoProgress (as bufio does).
const maxEmptyReads = 100

func (s *resampleStream) Rate() int     { return s.r.to }
func (s *resampleStream) Channels() int { return s.r.channels }

func (s *resampleStream) Read(dst []float32) (int, error) {
	ch := s.r.channels
	want := len(dst) / ch * ch
	for s.pos == len(s.out) {
		if s.err != nil {
			return 0, s.err
		}
		if s.done {
			return 0, io.EOF
		}
		if want == 0 {
			return 0, nil
		}
		s.out, s.pos = s.out[:0], 0
		n, err := s.src.Read(s.in)
		if n == 0 && err == nil {
			if s.empty++; s.empty >= maxEmptyReads {
				s.err = fmt.Errorf("audio: resample: %w", io.ErrNoProgress)
			}
			continue
		}
		s.empty = 0
		if n%ch != 0 {
			s.err = fmt.Errorf("audio: resample: source returned %d samples, not whole %d-channel frames", n, ch)
			continue
		}
		s.out = s.r.Process(s.out, s.in[:n])
		switch {
		case errors.Is(err, io.EOF):
			s.out = s.r.Flush(s.out)
			s.done = true
		case err != nil:
			s.err = err
		}
	}
	n := copy(dst[:want], s.out[s.pos:])
	s.pos += n
	return n, nil
}
