package audio

import (
	"encoding/binary"
	"io"
	"math"
)

// openWAV reads the WAV header from r and returns a Stream over the data
// chunk and the number of frames in it.
func openWAV(r *bufReadSeeker) (Stream, int64, error) {
	h, err := readWAVHeader(r, r.size)
	if err != nil {
		return nil, 0, err
	}
	if _, err := r.Seek(h.dataStart, io.SeekStart); err != nil {
		return nil, 0, err
	}
	s := &wavStream{
		r:       r,
		h:       h,
		left:    h.dataSize,
		convert: wavConverter(h.encoding, h.sampleSize),
	}
	return s, h.dataSize / h.frameSize(), nil
}

// wavStream decodes the data chunk of a WAV file.
type wavStream struct {
	r       io.Reader
	h       wavHeader
	left    int64 // bytes of whole frames not yet read
	buf     []byte
	convert func(dst []float32, src []byte)
	bad     int64 // non-finite float samples read
}

// Truncated reports whether the file ends before its data chunk does.
func (s *wavStream) Truncated() bool { return s.h.truncated }

// NonFinite returns how many float samples read so far were NaN or ±Inf
// (read as 0 and ±1).
func (s *wavStream) NonFinite() int64 { return s.bad }

func (s *wavStream) Rate() int     { return s.h.rate }
func (s *wavStream) Channels() int { return s.h.channels }

// wavReadBytes bounds the bytes read from the file per Read call.
const wavReadBytes = 64 << 10

func (s *wavStream) Read(dst []float32) (int, error) {
	if s.left == 0 {
		return 0, io.EOF
	}
	fs := s.h.frameSize()
	frames := min(int64(len(dst)/s.h.channels), s.left/fs, max(wavReadBytes/fs, 1))
	if frames == 0 {
		return 0, io.ErrShortBuffer
	}
	n := int(frames * fs)
	if cap(s.buf) < n {
		s.buf = make([]byte, n)
	}
	got, err := io.ReadFull(s.r, s.buf[:n])
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		// The file shrank since Open measured it: keep the whole frames.
		s.left, err = 0, nil
	} else if err != nil {
		return 0, err
	} else {
		s.left -= int64(n)
	}
	got -= got % int(fs)
	samples := got / s.h.sampleSize
	if s.h.encoding == wavFloat {
		s.bad += countNonFinite(s.buf[:got], s.h.sampleSize)
	}
	s.convert(dst[:samples], s.buf[:got])
	if samples == 0 {
		return 0, io.EOF
	}
	return samples, nil
}

// Scale factors from integer PCM to [-1, 1]: a b-bit sample x maps to
// x / 2^(b-1), so the most negative value is exactly -1.
const (
	scale8  = 1.0 / (1 << 7)
	scale16 = 1.0 / (1 << 15)
	scale32 = 1.0 / (1 << 31)
)

// wavConverter returns the function that turns little-endian samples of
// the given encoding and container size into float32.
func wavConverter(enc wavEncoding, size int) func(dst []float32, src []byte) {
	switch {
	case enc == wavALaw:
		return func(dst []float32, src []byte) { g711(dst, src, &aLawTable) }
	case enc == wavMuLaw:
		return func(dst []float32, src []byte) { g711(dst, src, &muLawTable) }
	case enc == wavFloat && size == 4:
		return float32LE
	case enc == wavFloat:
		return float64LE
	case size == 1:
		return unsigned8
	case size == 2:
		return signed16LE
	case size == 3:
		return signed24LE
	}
	return signed32LE
}

// unsigned8 converts 8-bit PCM, which WAV stores offset by 128:
// 0x00 → -1, 0x80 → 0, 0xFF → 127/128.
func unsigned8(dst []float32, src []byte) {
	for i, b := range src[:len(dst)] {
		dst[i] = float32(int(b)-128) * scale8
	}
}

func signed16LE(dst []float32, src []byte) {
	src = src[:2*len(dst)]
	for i := range dst {
		dst[i] = float32(int16(binary.LittleEndian.Uint16(src[2*i:]))) * scale16
	}
}

// signed24LE places the three bytes in the top of an int32, which keeps the
// sign, and scales that by 2^-31.
func signed24LE(dst []float32, src []byte) {
	src = src[:3*len(dst)]
	for i := range dst {
		b := src[3*i : 3*i+3]
		dst[i] = float32(int32(uint32(b[0])<<8|uint32(b[1])<<16|uint32(b[2])<<24)) * scale32
	}
}

func signed32LE(dst []float32, src []byte) {
	src = src[:4*len(dst)]
	for i := range dst {
		dst[i] = float32(int32(binary.LittleEndian.Uint32(src[4*i:]))) * scale32
	}
}

func float32LE(dst []float32, src []byte) {
	src = src[:4*len(dst)]
	for i := range dst {
		dst[i] = clampSample(math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:])))
	}
}

func float64LE(dst []float32, src []byte) {
	src = src[:8*len(dst)]
	for i := range dst {
		dst[i] = clampSample(float32(math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:]))))
	}
}

// countNonFinite counts the NaN and ±Inf among little-endian IEEE
// floats of size 4 or 8 bytes: those whose exponent bits are all ones.
func countNonFinite(src []byte, size int) int64 {
	var n int64
	if size == 4 {
		for i := 0; i+4 <= len(src); i += 4 {
			if binary.LittleEndian.Uint32(src[i:])&0x7F800000 == 0x7F800000 {
				n++
			}
		}
		return n
	}
	for i := 0; i+8 <= len(src); i += 8 {
		if binary.LittleEndian.Uint64(src[i:])&0x7FF0000000000000 == 0x7FF0000000000000 {
			n++
		}
	}
	return n
}

// clampSample maps a float sample into [-1, 1]: NaN becomes 0, and values
// beyond full scale, ±Inf included, become ±1.
func clampSample(x float32) float32 {
	switch {
	case x >= -1 && x <= 1:
		return x
	case x > 1:
		return 1
	case x < -1:
		return -1
	}
	return 0 // NaN
}
