package audio

import (
	"encoding/binary"
	"fmt"
	"io"

	mp3 "github.com/hajimehoshi/go-mp3"
)

// mpegHeader is the decoded 32-bit header of an MPEG audio frame
// (ISO/IEC 11172-3, section 2.4.2.3; 13818-3 for MPEG-2 and the unofficial
// MPEG-2.5 extension).
type mpegHeader struct {
	version int // 1, 2, or 25 for MPEG-2.5
	layer   int // 1, 2 or 3
	bitrate int // bits per second, 0 for "free format"
	rate    int // samples per second
	padding int // 1 if the frame carries an extra slot
	mono    bool
}

var mpegBitrates = [2][3][15]int{ // [MPEG-1, MPEG-2/2.5][layer-1][index], kbit/s
	{
		{0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448},
		{0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384},
		{0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320},
	},
	{
		{0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256},
		{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160},
		{0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160},
	},
}

var mpegRates = [3]int{44100, 48000, 32000} // MPEG-1; halved for 2, quartered for 2.5

// parseMPEGHeader decodes the frame header at b[0]: 11 sync bits, then
// version (2 bits), layer (2), protection (1), bitrate index (4), rate
// index (2), padding (1), private (1), channel mode (2), mode extension
// (2), copyright (1), original (1), emphasis (2). It rejects the reserved
// values.
func parseMPEGHeader(b []byte) (mpegHeader, bool) {
	if len(b) < 4 {
		return mpegHeader{}, false
	}
	w := binary.BigEndian.Uint32(b)
	ver, layer := w>>19&3, w>>17&3
	bri, sri := w>>12&15, w>>10&3
	if w>>21 != 0x7FF || ver == 1 || layer == 0 || bri == 15 || sri == 3 || w&3 == 2 {
		return mpegHeader{}, false
	}
	h := mpegHeader{layer: int(4 - layer), padding: int(w >> 9 & 1), mono: w>>6&3 == 3}
	row := 1
	switch ver {
	case 3:
		h.version, row, h.rate = 1, 0, mpegRates[sri]
	case 2:
		h.version, h.rate = 2, mpegRates[sri]/2
	case 0:
		h.version, h.rate = 25, mpegRates[sri]/4
	}
	h.bitrate = mpegBitrates[row][h.layer-1][bri] * 1000
	return h, true
}

// frameLen returns the frame's length in bytes, or 0 for free format.
func (h mpegHeader) frameLen() int {
	switch {
	case h.bitrate == 0:
		return 0
	case h.layer == 1:
		return (12*h.bitrate/h.rate + h.padding) * 4
	case h.layer == 3 && h.version != 1:
		return 72*h.bitrate/h.rate + h.padding
	}
	return 144*h.bitrate/h.rate + h.padding
}

// supported reports what go-mp3 cannot decode: Layers I and II, MPEG-2.5
// and free-format bitrates.
func (h mpegHeader) supported() error {
	name := fmt.Sprintf("MPEG-%d Layer %s", h.version, [...]string{"I", "II", "III"}[h.layer-1])
	if h.version == 25 {
		name = "MPEG-2.5 Layer " + [...]string{"I", "II", "III"}[h.layer-1]
	}
	switch {
	case h.layer != 3 || h.version == 25:
		return formatErrorf("%s audio is not supported (only MPEG-1/2 Layer III, MP3)", name)
	case h.bitrate == 0:
		return formatErrorf("free-format bitrate %s audio is not supported", name)
	}
	return nil
}

// openMP3 starts decoding an MP3 stream whose first frame header is at the
// start of r (ID3v2 tags already skipped).
//
// go-mp3 always produces 16-bit stereo; a mono file's two channels are
// equal, and the Stream returns only the first. The channel count comes
// from the first frame. The decoder scans every frame header when it
// opens a seekable input, which gives the length.
//
// go-mp3 does not trim the encoder delay: the audio starts with about
// 1,100 samples of silence, plus one frame (1,152 or 576 samples) of
// silence where the encoder wrote a Xing/Info frame.
//
// go-mp3 v0.3.4 panics on some malformed frames (an index out of range in
// maindata.getScaleFactorsMpeg2, found by FuzzSniff), so its calls are
// guarded by recoverDecoder.
func openMP3(r *bufReadSeeker) (s Stream, declared int64, err error) {
	defer recoverDecoder(FormatMP3, &err)
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, 0, formatErrorf("MP3: reading the first frame header: %w", err)
	}
	h, ok := parseMPEGHeader(head[:])
	if !ok {
		return nil, 0, formatErrorf("MP3: no frame header at the start")
	}
	if err := h.supported(); err != nil {
		return nil, 0, err
	}
	cut := mp3CutShort(r)
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, 0, err
	}
	d, err := mp3.NewDecoder(r)
	if err != nil {
		return nil, 0, formatErrorf("MP3: %w", err)
	}
	st := &mp3Stream{d: d, rate: d.SampleRate(), channels: 2, cut: cut}
	if h.mono {
		st.channels = 1
	}
	declared = -1
	if d.Length() >= 0 {
		declared = d.Length() / 4
	}
	return st, declared, nil
}

// mp3Stream converts go-mp3's interleaved 16-bit stereo bytes to float32.
type mp3Stream struct {
	d        *mp3.Decoder
	rate     int
	channels int
	buf      []byte
	pending  int  // bytes at the start of buf not yet converted (< 4)
	cut      bool // the last frame runs past the end of the file
}

// Truncated reports whether the file ends inside its last frame: a copy
// or download cut short. go-mp3 counts only whole frames, so the length
// it declares says nothing of it.
func (s *mp3Stream) Truncated() bool { return s.cut }

// mp3CutShort walks the frame headers of r from its start (each gives
// its frame's length) and reports whether the last frame runs past the
// end of r. It stops, saying no, at bytes that are no frame header (an
// ID3v1 or APE tag, junk): only a frame known to be incomplete counts.
// It reads 4 bytes a frame, and leaves r's position anywhere.
func mp3CutShort(r *bufReadSeeker) bool {
	var head [4]byte
	for pos := int64(0); pos < r.size; {
		if _, err := r.Seek(pos, io.SeekStart); err != nil {
			return false
		}
		n, _ := io.ReadFull(r, head[:])
		h, ok := parseMPEGHeader(head[:n])
		if !ok {
			// A header cut in its first bytes: the sync bits and no more.
			return n < 4 && n > 0 && head[0] == 0xFF && (n == 1 || head[1]&0xE0 == 0xE0)
		}
		fl := h.frameLen()
		if fl <= 0 {
			return false
		}
		if pos+int64(fl) > r.size {
			return true
		}
		pos += int64(fl)
	}
	return false
}

func (s *mp3Stream) Rate() int     { return s.rate }
func (s *mp3Stream) Channels() int { return s.channels }

func (s *mp3Stream) Read(dst []float32) (n int, err error) {
	defer recoverDecoder(FormatMP3, &err)
	frames := min(len(dst)/s.channels, 16<<10)
	if cap(s.buf) < 4*frames {
		s.buf = append(s.buf[:s.pending], make([]byte, 4*frames-s.pending)...)
	}
	buf := s.buf[:4*frames]
	got, err := io.ReadAtLeast(s.d, buf[s.pending:], 4-s.pending)
	n = got + s.pending
	whole := n / 4 * 4
	for f := 0; f < whole/4; f++ {
		left := float32(int16(binary.LittleEndian.Uint16(buf[4*f:]))) * scale16
		if s.channels == 1 {
			dst[f] = left
			continue
		}
		dst[2*f] = left
		dst[2*f+1] = float32(int16(binary.LittleEndian.Uint16(buf[4*f+2:]))) * scale16
	}
	s.pending = copy(buf, buf[whole:n])
	if err == io.ErrUnexpectedEOF {
		err = io.EOF // a cut-off last sample
	}
	if err == io.EOF && whole > 0 {
		err = nil
	}
	if err != nil && err != io.EOF {
		err = formatErrorf("MP3: %w", err)
	}
	return whole / 4 * s.channels, err
}
