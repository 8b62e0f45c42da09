package audio

import (
	"errors"
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
//
// A file cut short ends inside a frame (a FLAC frame holds up to 65,535
// samples, 4,096 from most encoders: a quarter of a second at 16 kHz, or
// the whole of a short clip). The samples of that frame before the cut
// are decoded too (partialFrame), so that a cut file keeps all the audio
// it holds, as WAV, OGG and MP3 do; after them Read returns the
// truncation error (wrapping io.ErrUnexpectedEOF), which decodeStream
// turns into the end of the audio and Truncated.
type flacStream struct {
	st       *flac.Stream
	rate     int
	channels int
	bps      int // from STREAMINFO; frames may override it
	pending  []float32
	next     int   // pending[next:] not yet returned
	cut      error // the truncation after pending, if the file ends in a frame
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
			if s.cut != nil {
				s.done = true
				return n, s.cut
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
// (possible only in corrupt files) are clamped to [-1, 1]. A frame cut
// short by the end of the file leaves its samples before the cut in
// s.pending and the error in s.cut.
func (s *flacStream) decodeFrame() error {
	f, err := s.st.ParseNext()
	if err == io.EOF {
		return io.EOF
	}
	if err != nil && errors.Is(err, io.ErrUnexpectedEOF) && f != nil && partialFrame(f) > 0 {
		s.cut, err = formatErrorf("FLAC: frame %d: %w", f.Num, err), nil
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

// partialFrame reconstructs the samples of a frame that the end of the
// file cut short, as far as every channel got, and returns how many
// there are; each subframe is left holding that many samples, decoded
// and correlated. mewkiz/flac decodes the subframes in channel order and
// stops at the first read that fails, keeping what it read: the
// subframes before hold all their samples, predicted but not yet
// correlated; the cut one, if verbatim, its samples as read, if
// predicted, its warm-up samples and the residuals before the cut (each
// shifted left by the wasted bits), not yet predicted; the ones after
// are nil. So a frame of several channels keeps samples only when the
// cut falls in its last subframe. When every subframe is whole, the cut
// fell in the CRC after them, and the frame is complete (correlated).
// The CRC cannot be checked, but every bit read lies before the cut.
func partialFrame(f *frame.Frame) int {
	block := int(f.BlockSize)
	if len(f.Subframes) == 0 || f.Subframes[len(f.Subframes)-1] == nil {
		return 0
	}
	last := f.Subframes[len(f.Subframes)-1]
	if len(last.Samples) == block {
		return block // cut in the CRC: decoded and correlated
	}
	n := predictPartial(last)
	for _, sub := range f.Subframes {
		sub.Samples = sub.Samples[:n]
	}
	f.Correlate()
	return n
}

// predictPartial turns the warm-up samples and residuals of a cut
// subframe into samples, in place, and returns how many it has.
func predictPartial(sub *frame.Subframe) int {
	var coeffs []int32
	var shift int32
	switch sub.Pred {
	case frame.PredConstant, frame.PredVerbatim:
		return len(sub.Samples) // constant: all or nothing; verbatim: samples as read
	case frame.PredFixed:
		if sub.Order < len(frame.FixedCoeffs) {
			coeffs = frame.FixedCoeffs[sub.Order]
		}
	case frame.PredFIR:
		coeffs, shift = sub.Coeffs, sub.CoeffShift
	}
	x := sub.Samples
	if len(coeffs) != sub.Order || shift < 0 {
		return min(len(x), sub.Order) // cut before the coefficients: the warm-up only
	}
	w := sub.Wasted
	for i := range x {
		x[i] >>= w // exact: mewkiz shifted them left
	}
	for i := sub.Order; i < len(x); i++ {
		var p int64
		for j, c := range coeffs {
			p += int64(c) * int64(x[i-j-1])
		}
		x[i] += int32(p >> uint(shift))
	}
	for i := range x {
		x[i] <<= w
	}
	return len(x)
}
