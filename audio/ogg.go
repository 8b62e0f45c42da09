package audio

import (
	"io"

	"github.com/jfreymuth/oggvorbis"
)

// openOggVorbis starts decoding an Ogg Vorbis stream at the start of r. It
// returns the Stream and the length that the last page's granule position
// declares, -1 when unknown.
//
// oggvorbis v1.0.5 panics on some malformed pages (an Ogg page with zero
// segments makes page.readHeader index its segment table at -1, found by
// FuzzSniff), so its calls are guarded by recoverDecoder.
func openOggVorbis(r *bufReadSeeker) (s Stream, declared int64, err error) {
	defer recoverDecoder(FormatOggVorbis, &err)
	d, err := oggvorbis.NewReader(r)
	if err != nil {
		return nil, 0, formatErrorf("Ogg Vorbis: %w", err)
	}
	declared = d.Length()
	if declared <= 0 {
		declared = -1
	}
	return &oggStream{d: d}, declared, nil
}

// oggStream adapts oggvorbis.Reader, which already returns interleaved
// float32 clamped to [-1, 1]; NaN, which corrupt input can produce, is set
// to 0.
type oggStream struct {
	d   *oggvorbis.Reader
	bad int64 // NaN samples read
}

// NonFinite returns how many samples read so far were NaN (read as 0).
func (s *oggStream) NonFinite() int64 { return s.bad }

func (s *oggStream) Rate() int     { return s.d.SampleRate() }
func (s *oggStream) Channels() int { return s.d.Channels() }

func (s *oggStream) Read(dst []float32) (n int, err error) {
	defer recoverDecoder(FormatOggVorbis, &err)
	n, err = s.d.Read(dst)
	for i, x := range dst[:n] {
		if x != x {
			s.bad++
		}
		dst[i] = clampSample(x)
	}
	if err == io.EOF && n > 0 {
		err = nil
	}
	if err != nil && err != io.EOF {
		err = formatErrorf("Ogg Vorbis: %w", err)
	}
	return n, err
}
