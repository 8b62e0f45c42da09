package safetensors

import (
	"encoding/binary"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
)

// maxHeaderSize bounds the JSON header, as in the Rust implementation
// (100 MB): a lying length prefix can then cost at most this much memory.
const maxHeaderSize = 100_000_000

// chunkSize is how many bytes of tensor data are read or written per call.
const chunkSize = 1 << 16

// Reader is a validated safetensors header with on-demand access to
// the tensor data it describes.
//
// The whole header is checked when it is read (see NewReader), so
// every entry it lists is readable byte-wise; values are read from the
// underlying io.ReaderAt only when asked for. A Reader is safe for
// concurrent use if its io.ReaderAt is (an *os.File and a *bytes.Reader are).
type Reader struct {
	r        io.ReaderAt
	data     int64             // offset of the data buffer in r: 8 + header length
	metadata map[string]string // nil when the header has none
	tensors  []TensorInfo      // in data order
	index    map[string]int    // name → position in tensors
	source   string            // names the file in errors; may be empty
}

// NewReader reads and validates the header of the safetensors file
// held by r, which is size bytes long. It reads no tensor data: r must stay
// readable while the result is used.
//
// Any safetensors file passes, attend model or not. The checks, each
// failing with an error that wraps ErrCorrupt and says what is wrong:
//   - the 8-byte little-endian header length N is at least 2, at most
//     100 MB and at most size − 8;
//   - the header is UTF-8 JSON, starts with '{', and is one object followed
//     by nothing but whitespace;
//   - it has no key twice; __metadata__, if present, maps strings to
//     strings;
//   - every other entry has a dtype, a shape of non-negative integers and
//     two data_offsets [begin, end] with begin ≤ end, and end − begin is
//     the shape's element count times the dtype's size (computed without
//     overflow);
//   - the entries, sorted by offset, cover the data buffer of size − 8 − N
//     bytes exactly: no overlaps, no holes and no bytes after the last one.
//
// An unknown dtype is ErrCorrupt; a known one this package does not read,
// such as F4, is ErrUnsupported.
func NewReader(r io.ReaderAt, size int64) (*Reader, error) {
	return newReader(r, size, "")
}

// newReader is NewReader naming the file source in errors.
func newReader(r io.ReaderAt, size int64, source string) (*Reader, error) {
	s := &Reader{r: r, source: source}
	if size < 8 {
		return nil, s.errorf(ErrCorrupt, "file is %d bytes, too short to hold the 8-byte header length", size)
	}
	var prefix [8]byte
	if err := readFull(r, prefix[:], 0); err != nil {
		return nil, s.wrapf("reading the header length: %w", err)
	}
	n := binary.LittleEndian.Uint64(prefix[:])
	switch {
	case n < 2:
		return nil, s.errorf(ErrCorrupt, "header length %d is below the minimum of 2 ({})", n)
	case n > maxHeaderSize:
		return nil, s.errorf(ErrCorrupt, "header length %d exceeds the limit of %d bytes", n, maxHeaderSize)
	case n > uint64(size-8):
		return nil, s.errorf(ErrCorrupt, "header length %d exceeds the %d bytes after the length prefix (file truncated?)", n, size-8)
	}
	buf := make([]byte, n)
	if err := readFull(r, buf, 8); err != nil {
		return nil, s.wrapf("reading the header: %w", err)
	}
	h, err := parseHeader(buf)
	if err != nil {
		return nil, s.errorf(ErrCorrupt, "%v", err)
	}
	s.data = 8 + int64(n)
	var le *layoutError
	s.tensors, le = checkLayout(h, size-s.data)
	if le != nil {
		return nil, s.errorf(le.sentinel, "%s", le.msg)
	}
	s.metadata = h.metadata
	s.index = make(map[string]int, len(s.tensors))
	for i, t := range s.tensors {
		s.index[t.Name] = i
	}
	return s, nil
}

// Metadata returns a copy of the header's __metadata__ map, or nil if it
// has none.
func (s *Reader) Metadata() map[string]string { return maps.Clone(s.metadata) }

// Tensors returns the entries in data order (by offset), which for files
// this package writes is name order.
func (s *Reader) Tensors() []TensorInfo {
	out := slices.Clone(s.tensors)
	for i := range out {
		out[i].Shape = slices.Clone(out[i].Shape)
	}
	return out
}

// Info returns the entry called name.
func (s *Reader) Info(name string) (TensorInfo, bool) {
	i, ok := s.index[name]
	if !ok {
		return TensorInfo{}, false
	}
	t := s.tensors[i]
	t.Shape = slices.Clone(t.Shape)
	return t, true
}

// Float32s reads the values of the tensor called name, converted to
// float32: F64 values are rounded to nearest even, others convert exactly.
func (s *Reader) Float32s(name string) ([]float32, error) {
	t, err := s.lookup(name)
	if err != nil {
		return nil, err
	}
	dst := make([]float32, t.Len())
	if err := decode(s, t, dst, make([]byte, min(t.End-t.Begin, chunkSize))); err != nil {
		return nil, err
	}
	return dst, nil
}

// Float64s reads the values of the tensor called name, converted exactly to
// float64. It serves fixtures that need float64 precision, such as
// gradient checks.
func (s *Reader) Float64s(name string) ([]float64, error) {
	t, err := s.lookup(name)
	if err != nil {
		return nil, err
	}
	dst := make([]float64, t.Len())
	if err := decode(s, t, dst, make([]byte, min(t.End-t.Begin, chunkSize))); err != nil {
		return nil, err
	}
	return dst, nil
}

// lookup returns the readable entry called name.
func (s *Reader) lookup(name string) (TensorInfo, error) {
	i, ok := s.index[name]
	if !ok {
		return TensorInfo{}, s.errorf(ErrMismatch, "no tensor %q", name)
	}
	t := s.tensors[i]
	if !t.DType.readable() {
		return TensorInfo{}, s.errorf(ErrUnsupported, "tensor %q: dtype %s cannot be read as floats (want F32, F16, BF16 or F64)", name, t.DType)
	}
	return t, nil
}

// decode reads the bytes of t through buf, a scratch buffer whose length is
// a multiple of the element size, and converts them into dst, which holds
// t.Len() elements.
func decode[T float32 | float64](s *Reader, t TensorInfo, dst []T, buf []byte) error {
	size := int64(t.DType.Size())
	for off := t.Begin; off < t.End; {
		chunk := buf[:min(int64(len(buf)), t.End-off)]
		if err := readFull(s.r, chunk, s.data+off); err != nil {
			return s.wrapf("reading tensor %q: %w", t.Name, err)
		}
		out := dst[(off-t.Begin)/size:]
		switch t.DType {
		case F32:
			for i := range len(chunk) / 4 {
				out[i] = T(math.Float32frombits(binary.LittleEndian.Uint32(chunk[4*i:])))
			}
		case F16:
			for i := range len(chunk) / 2 {
				out[i] = T(Float16frombits(binary.LittleEndian.Uint16(chunk[2*i:])))
			}
		case BF16:
			for i := range len(chunk) / 2 {
				out[i] = T(bfloat16frombits(binary.LittleEndian.Uint16(chunk[2*i:])))
			}
		case F64:
			for i := range len(chunk) / 8 {
				out[i] = T(math.Float64frombits(binary.LittleEndian.Uint64(chunk[8*i:])))
			}
		}
		off += int64(len(chunk))
	}
	return nil
}

// readFull reads len(p) bytes at off, treating a short read as
// io.ErrUnexpectedEOF: the file is shorter than the size it was given as.
func readFull(r io.ReaderAt, p []byte, off int64) error {
	n, err := r.ReadAt(p, off)
	if n == len(p) {
		return nil // a ReaderAt may report io.EOF along with the last byte
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// errorf returns an error about s's file that wraps sentinel, its message
// prefixed "models: " and the file name when known.
func (s *Reader) errorf(sentinel error, format string, args ...any) error {
	return fileErrorf(s.source, sentinel, format, args...)
}

// wrapf is errorf for an error, such as an I/O error, that the format
// wraps with %w.
func (s *Reader) wrapf(format string, args ...any) error {
	return fmt.Errorf(filePrefix(s.source)+format, args...)
}
