package ggml

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/attend-go/attend/internal/atomicfile"
)

// Write writes f as a ggml model file, the layout whisper.cpp's
// converter and quantizer write and its loader reads: magic, the eleven
// hyper-parameters, the mel filters, the vocabulary, then f.Tensors in
// order. It checks f first and writes nothing if f is one Read would
// refuse (a hyper-parameter that is not positive, an unsupported file or
// tensor type, a tensor whose Data does not match its type and shape, a
// duplicate name, quantized tensors without QuantVersion in the ftype).
//
// whisper.cpp itself needs more than a well-formed file: the tensor
// names and shapes of a Whisper model (convert-pt-to-ggml.py's), 2-D
// weights in the file type's type, and NTextState = NAudioState.
func Write(w io.Writer, f *File) error {
	if err := check(f); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	var b [4]byte
	// bw's first error sticks: Flush reports it.
	put := func(v int) {
		binary.LittleEndian.PutUint32(b[:], uint32(int32(v)))
		bw.Write(b[:])
	}
	put(Magic)
	h := f.Hyper
	for _, fld := range h.fields() {
		put(*fld.v)
	}
	put(f.Filters.NMel)
	put(f.Filters.NFFT)
	for _, v := range f.Filters.Data {
		binary.LittleEndian.PutUint32(b[:], math.Float32bits(v))
		bw.Write(b[:])
	}
	put(len(f.Vocab))
	for _, tok := range f.Vocab {
		put(len(tok))
		bw.Write(tok)
	}
	for i := range f.Tensors {
		t := &f.Tensors[i]
		put(len(t.Shape))
		put(len(t.Name))
		put(int(t.Type))
		for _, d := range t.Shape {
			put(d)
		}
		bw.WriteString(t.Name)
		if _, err := bw.Write(t.Data); err != nil {
			return fmt.Errorf("ggml: writing tensor %q: %w", t.Name, err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("ggml: writing: %w", err)
	}
	return nil
}

// WriteFile writes f to path atomically (internal/atomicfile: a
// temporary file beside it, synced and renamed over path): a reader sees
// the old file or the whole new one.
func WriteFile(path string, f *File) error {
	if err := check(f); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, func(w io.Writer) error { return Write(w, f) }, nil); err != nil {
		return fmt.Errorf("ggml: %w", err)
	}
	return nil
}

// check refuses a File that Read would not read back.
func check(f *File) error {
	h := f.Hyper
	for _, fld := range h.fields() {
		v := *fld.v
		lo := 1
		if fld.name == "ftype" {
			lo = 0
		}
		if v < lo || v > math.MaxInt32 {
			return fmt.Errorf("ggml: hyper-parameter %s is %d, must be %d to %d", fld.name, v, lo, math.MaxInt32)
		}
	}
	if _, ok := h.FileType().TensorType(); !ok {
		return fmt.Errorf("ggml: %w: file type %v (ftype %d)", ErrUnsupported, h.FileType(), h.FType)
	}
	m := f.Filters
	if m.NMel < 0 || m.NFFT < 0 || m.NMel > math.MaxInt32 || m.NFFT > math.MaxInt32 || int64(m.NMel)*int64(m.NFFT) != int64(len(m.Data)) {
		return fmt.Errorf("ggml: mel filters of %d×%d hold %d values", m.NMel, m.NFFT, len(m.Data))
	}
	if len(f.Vocab) > math.MaxInt32 {
		return fmt.Errorf("ggml: %d tokens are more than an int32 counts", len(f.Vocab))
	}
	for i, tok := range f.Vocab {
		if len(tok) > math.MaxInt32 {
			return fmt.Errorf("ggml: token %d is %d bytes long", i, len(tok))
		}
	}
	seen := make(map[string]bool, len(f.Tensors))
	for i := range f.Tensors {
		t := &f.Tensors[i]
		if _, err := t.check(); err != nil {
			return err
		}
		for _, d := range t.Shape {
			if d > math.MaxInt32 {
				return fmt.Errorf("ggml: tensor %q: dimension %d exceeds int32", t.Name, d)
			}
		}
		if seen[t.Name] {
			return fmt.Errorf("ggml: tensor name %q appears twice", t.Name)
		}
		seen[t.Name] = true
		if t.Type.Quantized() && h.QuantVersion() != QuantVersion {
			return fmt.Errorf("ggml: tensor %q is %v, but ftype %d does not carry quantization version %d (ftype %d would)",
				t.Name, t.Type, h.FType, QuantVersion, int(h.FileType())+QuantVersionFactor*QuantVersion)
		}
	}
	return nil
}
