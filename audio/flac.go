package audio

import (
	"io"

	"github.com/mewkiz/flac"
	"github.com/mewkiz/flac/frame"
)

// openFLAC starts decoding a native FLAC stream at the start of r (ID3v2
// tags already skipped: mewkiz/flac's own ID3 skipping loses the bytes its
// inner bufio.Reader read ahead). It returns the Stream and the number of
// frames STREAMINFO declares, -1 when it says 0 (unknown).
func openFLAC(r *bufReadSeeker) (Stream, int64, error) {
	st, err := flac.New(r)
	if err != nil {
		return nil, 0, formatErrorf("FLAC: %w", err)
	}
	info := st.Info
	if info.BitsPerSample < 4 || info.BitsPerSample > 32 {
		return nil, 0, formatErrorf("FLAC: %d bits per sample, need 4 to 32", info.BitsPerSample)
	}
	declared := int64(info.NSamples)
	if declared == 0 {
		declared = -1
	}
	return &flacStream{
		st:       st,
		rate:     int(info.SampleRate),
		channels: int(info.NChannels),
		bps:      int(info.BitsPerSample),
	}, declared, nil
}

// flacStream decodes a FLAC stream frame by frame into float32, keeping
// the part of the last frame that did not fit into dst.
type flacStream struct {
	st       *flac.Stream
	rate     int
	channels int
	bps      int // from STREAMINFO; frames may override it
	pending  []float32
	next     int // pending[next:] not yet returned
	done     bool
}

func (s *flacStream) Rate() int     { return s.rate }
func (s *flacStream) Channels() int { return s.channels }

func (s *flacStream) Read(dst []float32) (int, error) {
	n := 0
	for n+s.channels <= len(dst) {
		if s.next == len(s.pending) {
			if s.done {
				break
			}
			if err := s.decodeFrame(); err != nil {
				if err == io.EOF {
					s.done = true
					break
				}
				return n, err
			}
		}
		k := copy(dst[n:len(dst)/s.channels*s.channels], s.pending[s.next:])
		s.next += k
		n += k
	}
	if n == 0 && s.done {
		return 0, io.EOF
	}
	return n, nil
}

// decodeFrame parses the next FLAC frame into s.pending, interleaved and
// scaled by 2^-(bits-1). Samples that overflow the declared bit depth
// (possible only in corrupt files) are clamped to [-1, 1].
func (s *flacStream) decodeFrame() error {
	f, err := s.st.ParseNext()
	if err == io.EOF {
		return io.EOF
	}
	if err != nil {
		return formatErrorf("FLAC: %w", err)
	}
	if got := f.Channels.Count(); got != s.channels {
		return formatErrorf("FLAC: frame %d has %d channels, STREAMINFO declares %d", f.Num, got, s.channels)
	}
	if f.SampleRate != 0 && int(f.SampleRate) != s.rate {
		return formatErrorf("FLAC: frame %d has sample rate %d Hz, STREAMINFO declares %d", f.Num, f.SampleRate, s.rate)
	}
	bps := s.bps
	if f.BitsPerSample != 0 {
		bps = int(f.BitsPerSample)
	}
	scale := float32(1) / float32(uint64(1)<<(bps-1))
	frames := int(f.BlockSize)
	for _, sub := range f.Subframes {
		frames = min(frames, len(sub.Samples))
	}
	if need := frames * s.channels; cap(s.pending) < need {
		s.pending = make([]float32, need)
	}
	s.pending, s.next = s.pending[:frames*s.channels], 0
	interleave(s.pending, f, frames, scale)
	return nil
}

func interleave(dst []float32, f *frame.Frame, frames int, scale float32) {
	ch := len(f.Subframes)
	for c, sub := range f.Subframes {
		for i, v := range sub.Samples[:frames] {
			dst[i*ch+c] = clampSample(float32(v) * scale)
		}
	}
}
