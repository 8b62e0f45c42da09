package ggml

import (
	"fmt"
	"math"
)

// Tensor is one tensor of a file: its raw little-endian data as stored,
// which stays quantized until asked otherwise.
//
// Shape is ggml's ne, fastest-varying dimension first: a PyTorch weight of
// shape [out, in] is stored with Shape [in, out], each of its out rows
// holding in contiguous elements (for a block type, in/32 blocks). A
// tensor has 0 to 4 dimensions; 0 is a scalar.
type Tensor struct {
	Name  string
	Type  Type
	Shape []int
	Data  []byte
	// Offset is the file offset of Data, 0 for a tensor not read from a
	// file.
	Offset int64
}

// Len returns the number of elements, the product of Shape.
func (t *Tensor) Len() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// RowMajorShape returns the shape in row-major (PyTorch, NumPy) order,
// Shape reversed: [ne1, ne0] for a matrix, [out, in, kernel] for a
// convolution weight.
func (t *Tensor) RowMajorShape() []int {
	s := make([]int, len(t.Shape))
	for i, d := range t.Shape {
		s[len(s)-1-i] = d
	}
	return s
}

// RowLen returns the elements per row, ne0 (1 for a scalar).
func (t *Tensor) RowLen() int {
	if len(t.Shape) == 0 {
		return 1
	}
	return t.Shape[0]
}

// Rows returns the number of rows, ne1·ne2·ne3.
func (t *Tensor) Rows() int {
	n := 1
	for _, d := range t.Shape[min(1, len(t.Shape)):] {
		n *= d
	}
	return n
}

// RowBytes returns the bytes of one row, or 0 if the tensor's type or row
// length is invalid.
func (t *Tensor) RowBytes() int {
	n, err := t.Type.RowBytes(t.RowLen())
	if err != nil {
		return 0
	}
	return n
}

// DataSize returns the bytes of the tensor's data as its type and shape
// say (whatever Data holds), or −1 if they are invalid.
func (t *Tensor) DataSize() int64 {
	n, err := dataSize(t.Type, t.Shape, math.MaxInt64)
	if err != nil {
		return -1
	}
	return n
}

// Row returns the raw bytes of row i, 0 ≤ i < Rows(); it panics out of
// range or if Data is short, as a slice index would.
func (t *Tensor) Row(i int) []byte {
	n := t.RowBytes()
	return t.Data[i*n : (i+1)*n]
}

// check reports whether the tensor is well formed: a supported type, 0 to
// 4 positive dimensions, rows of whole blocks and Data of the right size.
// It returns the data size.
func (t *Tensor) check() (int64, error) {
	if t.Name == "" {
		return 0, fmt.Errorf("ggml: a tensor has an empty name")
	}
	if len(t.Name) > maxNameLen {
		return 0, fmt.Errorf("ggml: tensor name of %d bytes is longer than %d", len(t.Name), maxNameLen)
	}
	if len(t.Shape) > MaxDims {
		return 0, fmt.Errorf("ggml: tensor %q has %d dimensions, at most %d allowed", t.Name, len(t.Shape), MaxDims)
	}
	size, err := dataSize(t.Type, t.Shape, math.MaxInt64)
	if fe, ok := err.(*FormatError); ok {
		return 0, fmt.Errorf("ggml: tensor %q: %s: %w", t.Name, fe.Msg, fe.Err)
	}
	if size != int64(len(t.Data)) {
		return 0, fmt.Errorf("ggml: tensor %q: %v %v needs %d bytes of data, has %d", t.Name, t.Type, t.Shape, size, len(t.Data))
	}
	return size, nil
}

// dataSize returns the bytes a tensor of type typ and shape ne occupies,
// checked against limit (the bytes available) before any product can
// overflow. Its errors are *FormatError without an offset: ErrUnsupported
// for the type, ErrFormat for the shape, ErrTruncated for the size.
func dataSize(typ Type, ne []int, limit int64) (int64, error) {
	if !typ.Supported() {
		return 0, &FormatError{Msg: fmt.Sprintf("tensor type %v is not supported (supported: f32, f16, q4_0, q4_1, q5_0, q5_1, q8_0)", typ), Err: ErrUnsupported}
	}
	for i, d := range ne {
		if d <= 0 {
			return 0, &FormatError{Msg: fmt.Sprintf("dimension %d (ne[%d]) is %d, must be positive", i, i, d), Err: ErrFormat}
		}
	}
	rowLen := 1
	if len(ne) > 0 {
		rowLen = ne[0]
	}
	if rowLen%typ.BlockLen() != 0 {
		return 0, &FormatError{Msg: fmt.Sprintf("%v rows of %d elements (ne[0]) are not whole %d-element blocks", typ, rowLen, typ.BlockLen()), Err: ErrFormat}
	}
	tooBig := &FormatError{Msg: fmt.Sprintf("%v data of shape %v needs more than the %d bytes left in the file", typ, ne, limit), Err: ErrTruncated}
	size := int64(rowLen / typ.BlockLen() * typ.BlockBytes())
	if size > limit {
		return 0, tooBig
	}
	for _, d := range ne[min(1, len(ne)):] {
		if size > limit/int64(d) {
			return 0, tooBig
		}
		size *= int64(d)
	}
	return size, nil
}

// NewTensor returns a tensor called name of type typ and shape (ggml's ne
// order, fastest first) holding values (ggml order, len = the product of
// shape), encoded with Quantize.
func NewTensor(name string, typ Type, shape []int, values []float32) (Tensor, error) {
	t := Tensor{Name: name, Type: typ, Shape: append([]int(nil), shape...)}
	if len(values) != t.Len() {
		return Tensor{}, fmt.Errorf("ggml: tensor %q of shape %v needs %d values, has %d", name, shape, t.Len(), len(values))
	}
	var err error
	if t.Data, err = Quantize(typ, values); err != nil {
		return Tensor{}, fmt.Errorf("%w (tensor %q)", err, name)
	}
	if _, err := t.check(); err != nil {
		return Tensor{}, err
	}
	return t, nil
}
