package stream

import (
	"encoding/binary"
	"fmt"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// PCM turns raw signed 16-bit little-endian PCM (what arecord -f S16_LE,
// parec --format=s16le, ffmpeg -f s16le and Vosk's clients send), of any
// rate and channel count, into the mono speechmodel.SampleRate samples a
// Streamer takes, in pieces of any size: a piece may end in the middle
// of a sample or a frame, the rest is kept for the next.
type PCM struct {
	channels int
	r        *audio.Resampler // nil at SampleRate
	carry    []byte           // the bytes of an incomplete frame
	frame    []float32        // scratch: interleaved samples
	mono     []float32
}

// MaxPCMRate and MaxPCMChannels bound what NewPCM accepts.
const (
	MaxPCMRate     = 384000
	MaxPCMChannels = 32
)

// NewPCM returns a converter from rate Hz and channels.
func NewPCM(rate, channels int) (*PCM, error) {
	if rate < 8000 || rate > MaxPCMRate || channels < 1 || channels > MaxPCMChannels {
		return nil, fmt.Errorf("stream: PCM at %d Hz, %d channels: want 8000–%d Hz and 1–%d channels", rate, channels,
			MaxPCMRate, MaxPCMChannels)
	}
	p := &PCM{channels: channels}
	if rate != speechmodel.SampleRate {
		var err error
		if p.r, err = audio.NewResampler(rate, speechmodel.SampleRate, 1); err != nil {
			return nil, fmt.Errorf("stream: %w", err)
		}
	}
	return p, nil
}

// Decode appends to dst the samples of the whole frames in b (and the
// bytes left by the piece before).
func (p *PCM) Decode(dst []float32, b []byte) []float32 {
	fb := 2 * p.channels
	if len(p.carry) > 0 {
		need := min(fb-len(p.carry), len(b))
		p.carry = append(p.carry, b[:need]...)
		b = b[need:]
		if len(p.carry) == fb {
			dst = p.frames(dst, p.carry)
			p.carry = p.carry[:0]
		}
	}
	whole := len(b) / fb * fb
	dst = p.frames(dst, b[:whole])
	p.carry = append(p.carry, b[whole:]...)
	return dst
}

// Flush appends what the resampler still owes at the end of the stream;
// an incomplete last frame is dropped.
func (p *PCM) Flush(dst []float32) []float32 {
	p.carry = p.carry[:0]
	if p.r == nil {
		return dst
	}
	return p.r.Flush(dst)
}

// frames converts whole frames: mixed down (mean of the channels),
// scaled to [-1, 1), resampled.
func (p *PCM) frames(dst []float32, b []byte) []float32 {
	ch := p.channels
	p.mono = p.mono[:0]
	for i := 0; i+2*ch <= len(b); i += 2 * ch {
		var s float32
		for c := range ch {
			s += float32(int16(binary.LittleEndian.Uint16(b[i+2*c:])))
		}
		p.mono = append(p.mono, s/(32768*float32(ch)))
	}
	if p.r == nil {
		return append(dst, p.mono...)
	}
	return p.r.Process(dst, p.mono)
}
