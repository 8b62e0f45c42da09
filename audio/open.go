package audio

import (
	"errors"
	"fmt"
	"io"
	"time"
)

// Open starts decoding an audio file incrementally, with the default
// options. See OpenWithOptions.
func Open(r io.ReadSeeker) (Stream, Format, error) {
	return OpenWithOptions(r, nil)
}

// OpenWithOptions starts decoding an audio file incrementally: it sniffs the
// format from the bytes at r's current offset (skipping ID3v2 tags, see
// Sniff), reads and checks the header, and returns a Stream that decodes as
// it is read, so that hours of audio never sit in memory. The Stream reads
// from r; do not use r until done with the Stream. A nil opts means the
// defaults.
//
// Open fails with an error wrapping ErrFormat when the bytes are not a
// supported format, the header is malformed, the sample rate is outside
// [MinRate, MaxRate] or there are no channels; with an error wrapping
// ErrTooLong when the header declares more than opts.MaxDuration of audio;
// and with r's own error when reading fails. The Stream's Read reports
// ErrTooLong once it passes opts.MaxDuration, and ErrFormat for corrupt
// data. The Format is returned whenever the sniffing succeeded, so error
// messages can name it.
func OpenWithOptions(r io.ReadSeeker, opts *DecodeOptions) (Stream, Format, error) {
	st, f, err := open(r, opts)
	if err != nil {
		return nil, f, err
	}
	return st, f, nil
}

// decodeStream is the Stream Open returns: a format decoder, its declared
// length and the duration limit.
type decodeStream struct {
	Stream   // the format's decoder
	format   Format
	in       *bufReadSeeker
	declared int64 // frames the header declares, -1 if unknown
	trusted  bool  // the declared frames are known to be in the file
	frames   int64 // frames read so far
	max      time.Duration
	maxFrm   int64 // frames allowed by max, -1 for no limit
	eof      bool  // the decoder reported the end
	cut      bool  // the file ended inside a frame or packet
}

func open(r io.ReadSeeker, opts *DecodeOptions) (*decodeStream, Format, error) {
	if r == nil {
		return nil, FormatUnknown, errors.New("audio: Open of a nil reader")
	}
	base, err := r.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, FormatUnknown, fmt.Errorf("audio: seeking input: %w", err)
	}
	end, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, FormatUnknown, fmt.Errorf("audio: seeking input: %w", err)
	}
	if _, err := r.Seek(base, io.SeekStart); err != nil {
		return nil, FormatUnknown, fmt.Errorf("audio: seeking input: %w", err)
	}
	in := newBufReadSeeker(r, base, max(end-base, 0))

	skip, head, err := skipID3(in)
	if err != nil {
		return nil, FormatUnknown, err
	}
	if skip > 0 && len(head) == 0 {
		return nil, FormatUnknown, formatErrorf("ID3v2 tag (%d bytes) with no audio after it", skip)
	}
	format, err := sniffBody(head)
	if err != nil {
		return nil, format, err
	}
	in = newBufReadSeeker(r, base+skip, max(end-base-skip, 0))

	st := &decodeStream{format: format, in: in, max: opts.maxDuration(), declared: -1}
	switch format {
	case FormatWAV:
		st.Stream, st.declared, err = openWAV(in)
		st.trusted = true
	case FormatFLAC:
		st.Stream, st.declared, err = openFLAC(in)
	case FormatOggVorbis:
		st.Stream, st.declared, err = openOggVorbis(in)
	case FormatMP3:
		st.Stream, st.declared, err = openMP3(in)
	}
	if err != nil {
		return nil, format, st.explain(err)
	}
	if err := checkShape(format, st.Rate(), st.Channels()); err != nil {
		return nil, format, err
	}
	st.maxFrm = framesIn(st.max, st.Rate())
	if st.maxFrm >= 0 && st.declared > st.maxFrm {
		return nil, format, fmt.Errorf("%w: %s header declares %v of audio, more than the %v maximum",
			ErrTooLong, format, framesDuration(st.declared, st.Rate()), st.max)
	}
	return st, format, nil
}

// Length returns the length of the audio as the header declares it, and
// false when the format or the file does not say (for progress reports:
// a damaged file may hold less).
func (s *decodeStream) Length() (time.Duration, bool) {
	if s.declared < 0 {
		return 0, false
	}
	return framesDuration(s.declared, s.Rate()), true
}

// Truncated reports whether the audio ended before its header said it
// would: a file cut short (a copy or a download that stopped), decoded
// as far as it goes. It is known once Read has returned io.EOF (for WAV,
// from the start). The same policy holds for every format: the audio
// there is decoded, and callers warn.
func (s *decodeStream) Truncated() bool {
	if t, ok := s.Stream.(interface{ Truncated() bool }); ok && t.Truncated() {
		return true
	}
	return s.cut || (s.eof && s.declared > 0 && s.frames < s.declared)
}

// NonFinite returns how many samples read so far were NaN or ±Inf in
// the file (float WAV, Vorbis), which Read gives as 0 and ±1: a file
// holding many is likely broken, and callers warn.
func (s *decodeStream) NonFinite() int64 {
	if c, ok := s.Stream.(interface{ NonFinite() int64 }); ok {
		return c.NonFinite()
	}
	return 0
}

// Read reads from the format decoder, enforcing the duration limit and
// telling I/O failures of the input apart from corrupt data.
func (s *decodeStream) Read(dst []float32) (int, error) {
	ch := s.Channels()
	if len(dst) < ch {
		return 0, io.ErrShortBuffer
	}
	if s.cut {
		s.eof = true
		return 0, io.EOF
	}
	n, err := s.Stream.Read(dst[:len(dst)/ch*ch])
	s.frames += int64(n / ch)
	if s.maxFrm >= 0 && s.frames > s.maxFrm {
		over := int(s.frames - s.maxFrm)
		s.frames = s.maxFrm
		return max(n-over*ch, 0), fmt.Errorf("%w: %s stream is longer than the %v maximum", ErrTooLong, s.format, s.max)
	}
	if err != nil && err != io.EOF && s.in.err == nil && errors.Is(err, io.ErrUnexpectedEOF) {
		// The file ends inside a frame or packet: cut short. What was
		// decoded stands (the end follows it), and Truncated says so.
		s.cut, err = true, nil
		if n == 0 {
			s.eof, err = true, io.EOF
		}
	}
	if err == io.EOF {
		s.eof = true
	}
	if err != nil && err != io.EOF {
		err = s.explain(err)
	}
	return n, err
}

// explain replaces a decoder's error by the input's own read error, when
// there was one: a failing disk is not a malformed file.
func (s *decodeStream) explain(err error) error {
	if s.in.err != nil {
		return fmt.Errorf("audio: reading %s input: %w", s.format, s.in.err)
	}
	return err
}

// checkShape validates what every format's header declares.
func checkShape(f Format, rate, channels int) error {
	if rate < MinRate || rate > MaxRate {
		return formatErrorf("%s: sample rate %d Hz outside the supported [%d, %d] Hz", f, rate, MinRate, MaxRate)
	}
	if channels < 1 {
		return formatErrorf("%s: %d channels", f, channels)
	}
	return nil
}

// framesIn returns the number of frames in d at rate, or -1 when d < 0
// (no limit). It avoids overflowing int64 for long durations.
func framesIn(d time.Duration, rate int) int64 {
	if d < 0 {
		return -1
	}
	sec, frac := int64(d/time.Second), int64(d%time.Second)
	return sec*int64(rate) + frac*int64(rate)/int64(time.Second)
}

// framesDuration returns the duration of n frames at rate, saturating.
func framesDuration(n int64, rate int) time.Duration {
	s := float64(n) / float64(rate)
	if s >= float64(1<<62)/float64(time.Second) {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(s * float64(time.Second)).Round(time.Millisecond)
}

// skipID3 finds the end of the ID3v2 tags at the start of in and returns
// their total size and up to SniffLen bytes that follow them.
func skipID3(in *bufReadSeeker) (int64, []byte, error) {
	var skip int64
	head := make([]byte, SniffLen)
	for range maxID3Tags + 1 {
		if _, err := in.Seek(skip, io.SeekStart); err != nil {
			return 0, nil, fmt.Errorf("audio: seeking input: %w", err)
		}
		n, err := io.ReadFull(in, head)
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return 0, nil, fmt.Errorf("audio: reading input: %w", err)
		}
		size, ok := id3v2Size(head[:n])
		if !ok {
			return skip, head[:n], nil
		}
		skip += int64(size)
	}
	return 0, nil, formatErrorf("more than %d stacked ID3v2 tags", maxID3Tags)
}

// bufReadSeeker is a buffered window onto r starting at absolute offset
// base and size bytes long. The decoders do many small reads and seeks
// (go-mp3 reads frame headers a byte at a time); buffering them keeps an
// *os.File input from costing a system call each. It also remembers the
// first error r returned, other than io.EOF, so that Open can report an
// I/O failure as such rather than as a malformed file.
type bufReadSeeker struct {
	r     io.ReadSeeker
	base  int64 // absolute offset in r of position 0
	size  int64 // bytes from base to the end of r
	rpos  int64 // absolute offset of r, -1 if unknown
	buf   []byte
	bufAt int64 // position of buf[0]
	i, n  int   // buf[i:n] is unread; position is bufAt+i
	err   error // first non-EOF error from r
}

func newBufReadSeeker(r io.ReadSeeker, base, size int64) *bufReadSeeker {
	return &bufReadSeeker{r: r, base: base, size: size, rpos: -1, buf: make([]byte, 32<<10)}
}

func (b *bufReadSeeker) pos() int64 { return b.bufAt + int64(b.i) }

func (b *bufReadSeeker) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if b.i < b.n {
		k := copy(p, b.buf[b.i:b.n])
		b.i += k
		return k, nil
	}
	at := b.pos()
	if len(p) >= len(b.buf) {
		k, err := b.readAt(p, at)
		b.bufAt, b.i, b.n = at+int64(k), 0, 0
		return k, err
	}
	k, err := b.readAt(b.buf, at)
	b.bufAt, b.i, b.n = at, 0, k
	if k == 0 {
		return 0, err
	}
	k = copy(p, b.buf[:k])
	b.i = k
	return k, nil
}

// readAt reads into p from position at, seeking r only when it is
// elsewhere. It returns io.EOF only when it read nothing.
func (b *bufReadSeeker) readAt(p []byte, at int64) (int, error) {
	if at >= b.size {
		return 0, io.EOF
	}
	if b.rpos != b.base+at {
		if _, err := b.r.Seek(b.base+at, io.SeekStart); err != nil {
			b.rpos = -1
			return 0, b.fail(err)
		}
		b.rpos = b.base + at
	}
	k, err := io.ReadAtLeast(b.r, p[:min(int64(len(p)), b.size-at)], 1)
	b.rpos += int64(k)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = nil
		if k == 0 {
			err = io.EOF
		}
	}
	return k, b.fail(err)
}

func (b *bufReadSeeker) fail(err error) error {
	if err != nil && err != io.EOF && b.err == nil {
		b.err = err
	}
	return err
}

func (b *bufReadSeeker) Seek(offset int64, whence int) (int64, error) {
	var to int64
	switch whence {
	case io.SeekStart:
		to = offset
	case io.SeekCurrent:
		to = b.pos() + offset
	case io.SeekEnd:
		to = b.size + offset
	default:
		return 0, errors.New("audio: bufReadSeeker.Seek: invalid whence")
	}
	if to < 0 {
		return 0, errors.New("audio: bufReadSeeker.Seek: negative position")
	}
	if to >= b.bufAt && to <= b.bufAt+int64(b.n) {
		b.i = int(to - b.bufAt)
		return to, nil
	}
	b.bufAt, b.i, b.n = to, 0, 0
	return to, nil
}
