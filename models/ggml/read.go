package ggml

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
)

// ReadFile reads the ggml model file at path (Read).
func ReadFile(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("ggml: %w", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("ggml: %w", err)
	}
	f, err := Read(fh, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return f, nil
}

// Read reads a whole ggml model file of size bytes from r: header,
// filters, vocabulary and every tensor's data, which it keeps as stored
// (quantized tensors stay quantized; memory ≈ the file's size).
//
// Every count and length is checked against the bytes left before
// anything is allocated or read, so a corrupt file fails with an error
// naming the field and its offset (a *FormatError wrapping ErrFormat,
// ErrTruncated or ErrUnsupported) and never allocates more than the file
// holds. The file must end exactly after the last tensor's data.
func Read(r io.ReaderAt, size int64) (*File, error) {
	f, err := ReadIndex(r, size)
	if err != nil {
		return nil, err
	}
	var total int64
	for i := range f.Tensors {
		total += f.Tensors[i].DataSize()
	}
	// Every size was checked against the file: total ≤ its size.
	data := make([]byte, total)
	for i := range f.Tensors {
		t := &f.Tensors[i]
		n := t.DataSize()
		buf := data[:n:n]
		data = data[n:]
		if err := (&cursor{r: r, size: size}).readAt(buf, t.Offset); err != nil {
			return nil, err
		}
		t.Data = buf
	}
	return f, nil
}

// ReadIndex reads a ggml model file as Read does, checking everything
// Read checks, but leaves every tensor's Data nil: each Tensor has its
// Offset and shape, and ReadData (or an io.ReaderAt over the same file at
// Offset, DataSize bytes) reads its data when wanted. A loader that
// converts tensors one at a time so holds at most one tensor's bytes
// instead of the whole file.
func ReadIndex(r io.ReaderAt, size int64) (*File, error) {
	if size < 0 {
		return nil, fmt.Errorf("ggml: negative file size %d", size)
	}
	c := &cursor{r: r, size: size}
	f := &File{}
	if err := readMagic(c); err != nil {
		return nil, err
	}
	if err := readHyper(c, &f.Hyper); err != nil {
		return nil, err
	}
	if err := readFilters(c, &f.Filters); err != nil {
		return nil, err
	}
	if err := readVocab(c, f); err != nil {
		return nil, err
	}
	if err := readTensors(c, f); err != nil {
		return nil, err
	}
	return f, nil
}

func readMagic(c *cursor) error {
	head, err := c.next(int(min(c.left(), SniffLen)), "the magic")
	if err != nil {
		return err
	}
	if len(head) < 4 || binary.LittleEndian.Uint32(head) != Magic {
		_, err := Sniff(head)
		if err == nil { // a safetensors file
			err = fmt.Errorf("%w: a safetensors file, not a ggml one", ErrUnsupported)
		}
		return &FormatError{Offset: 0, Msg: "not a whisper.cpp ggml file: " + trimPrefix(err), Err: errKind(err)}
	}
	c.off = 4
	return nil
}

func readHyper(c *cursor, h *Hyper) error {
	for _, fld := range h.fields() {
		off := c.off
		v, err := c.int32("hyper-parameter " + fld.name)
		if err != nil {
			return err
		}
		if fld.name == "ftype" {
			if v < 0 {
				return formatErr(off, ErrFormat, "ftype is %d, must not be negative", v)
			}
		} else if v <= 0 {
			return formatErr(off, ErrFormat, "hyper-parameter %s is %d, must be positive", fld.name, v)
		}
		*fld.v = int(v)
	}
	if _, ok := h.FileType().TensorType(); !ok {
		return formatErr(c.off-4, ErrUnsupported, "file type %d (ftype %d) is not supported: whisper.cpp's converter writes f32 (0) and f16 (1), its quantizer q4_0 (2), q4_1 (3), q8_0 (7), q5_0 (8), q5_1 (9); k-quants are not read",
			h.FileType(), h.FType)
	}
	return nil
}

func readFilters(c *cursor, m *MelFilters) error {
	nMelOff := c.off
	nMel, err := c.int32("mel filters n_mel")
	if err != nil {
		return err
	}
	nFFT, err := c.int32("mel filters n_fft")
	if err != nil {
		return err
	}
	if nMel < 0 || nFFT < 0 {
		return formatErr(nMelOff, ErrFormat, "mel filters have n_mel %d × n_fft %d, must not be negative", nMel, nFFT)
	}
	n := int64(nMel) * int64(nFFT)
	if err := c.need(4*n, fmt.Sprintf("the %d×%d mel filters", nMel, nFFT)); err != nil {
		return err
	}
	buf := make([]byte, 4*n)
	if err := c.copyTo(buf, "the mel filters"); err != nil {
		return err
	}
	m.NMel, m.NFFT = int(nMel), int(nFFT)
	m.Data = make([]float32, n)
	for i := range m.Data {
		m.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:]))
	}
	return nil
}

func readVocab(c *cursor, f *File) error {
	countOff := c.off
	n, err := c.int32("the vocabulary's token count")
	if err != nil {
		return err
	}
	if n < 0 {
		return formatErr(countOff, ErrFormat, "the vocabulary has %d tokens, must not be negative", n)
	}
	if int64(n)*4 > c.left() {
		return formatErr(countOff, ErrTruncated, "the vocabulary's %d tokens need at least %d bytes, the file has %d left", n, 4*int64(n), c.left())
	}
	ends := make([]int, n)
	var text []byte
	for i := range ends {
		lenOff := c.off
		if c.left() < 4 {
			return formatErr(lenOff, ErrTruncated, "token %d of %d: its length needs 4 bytes, the file has %d left", i, n, c.left())
		}
		b, err := c.next(4, "a token's length")
		if err != nil {
			return err
		}
		l := int64(binary.LittleEndian.Uint32(b)) // whisper.cpp reads a uint32
		if l > c.left() {
			return formatErr(lenOff, ErrTruncated, "token %d of %d is %d bytes long, the file has %d left", i, n, l, c.left())
		}
		start := len(text)
		text = slices.Grow(text, int(l))[:start+int(l)]
		if err := c.copyTo(text[start:], "a token"); err != nil {
			return err
		}
		ends[i] = len(text)
	}
	f.Vocab = make([][]byte, n)
	start := 0
	for i, end := range ends {
		f.Vocab[i] = text[start:end:end]
		start = end
	}
	return nil
}

// tensorHeader is a tensor's header with where its data lies.
type tensorHeader struct {
	t    Tensor
	size int64
}

func readTensors(c *cursor, f *File) error {
	var heads []tensorHeader
	f.index = map[string]int{}
	for c.left() > 0 {
		h, err := readTensorHeader(c, len(heads))
		if err != nil {
			return err
		}
		if _, dup := f.index[h.t.Name]; dup {
			return formatErr(h.t.Offset, ErrFormat, "tensor %d: name %q appears twice", len(heads), h.t.Name)
		}
		f.index[h.t.Name] = len(heads)
		heads = append(heads, h)
	}
	f.Tensors = make([]Tensor, len(heads))
	for i, h := range heads {
		f.Tensors[i] = h.t
	}
	return checkQuantVersion(f)
}

func readTensorHeader(c *cursor, i int) (tensorHeader, error) {
	start := c.off
	what := fmt.Sprintf("tensor %d's header", i)
	nDims, err := c.int32(what + " (n_dims)")
	if err != nil {
		return tensorHeader{}, err
	}
	nameLen, err := c.int32(what + " (name length)")
	if err != nil {
		return tensorHeader{}, err
	}
	ttype, err := c.int32(what + " (type)")
	if err != nil {
		return tensorHeader{}, err
	}
	if nDims < 0 || nDims > MaxDims {
		return tensorHeader{}, formatErr(start, ErrFormat, "tensor %d has n_dims %d, must be 0 to %d", i, nDims, MaxDims)
	}
	if nameLen <= 0 || nameLen > maxNameLen {
		return tensorHeader{}, formatErr(start+4, ErrFormat, "tensor %d's name is %d bytes long, must be 1 to %d", i, nameLen, maxNameLen)
	}
	typ := Type(uint32(ttype))
	if !typ.Supported() {
		return tensorHeader{}, formatErr(start+8, ErrUnsupported, "tensor %d has type %v (id %d), not supported (supported: f32, f16, q4_0, q4_1, q5_0, q5_1, q8_0)", i, typ, ttype)
	}
	shapeOff := c.off
	shape := make([]int, nDims)
	for d := range shape {
		v, err := c.int32(fmt.Sprintf("tensor %d's ne[%d]", i, d))
		if err != nil {
			return tensorHeader{}, err
		}
		shape[d] = int(v)
	}
	name, err := c.next(int(nameLen), fmt.Sprintf("tensor %d's name", i))
	if err != nil {
		return tensorHeader{}, err
	}
	t := Tensor{Name: string(name), Type: typ, Shape: shape, Offset: c.off}
	size, err := dataSize(typ, shape, c.left())
	if fe, ok := err.(*FormatError); ok {
		off := shapeOff
		if fe.Err == ErrTruncated {
			off = t.Offset
		}
		return tensorHeader{}, formatErr(off, fe.Err, "tensor %d %q: %s", i, t.Name, fe.Msg)
	}
	if err := c.skip(size, fmt.Sprintf("tensor %q's data", t.Name)); err != nil {
		return tensorHeader{}, err
	}
	return tensorHeader{t: t, size: size}, nil
}

// checkQuantVersion refuses quantized tensors in a file whose ftype
// carries another quantization version than ggml's current one: the
// block layouts of versions 0 and 1 differ.
func checkQuantVersion(f *File) error {
	if f.Hyper.QuantVersion() == QuantVersion {
		return nil
	}
	for _, t := range f.Tensors {
		if t.Type.Quantized() {
			return formatErr(t.Offset, ErrUnsupported, "tensor %q is %v, but the file's ftype %d says quantization version %d; only version %d (ggml since 2023) is read: quantize the f16 model again with a current whisper.cpp",
				t.Name, t.Type, f.Hyper.FType, f.Hyper.QuantVersion(), QuantVersion)
		}
	}
	return nil
}

// ReadData reads the tensor's data from r, the file ReadIndex read it
// from, into Data (DataSize bytes at Offset).
func (t *Tensor) ReadData(r io.ReaderAt) error {
	n := t.DataSize()
	if n < 0 {
		return fmt.Errorf("ggml: tensor %q: %v %v is not a valid tensor", t.Name, t.Type, t.Shape)
	}
	buf := make([]byte, n)
	if err := (&cursor{r: r, size: t.Offset + n}).readAt(buf, t.Offset); err != nil {
		return fmt.Errorf("%w (tensor %q)", err, t.Name)
	}
	t.Data = buf
	return nil
}
