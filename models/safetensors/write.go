package safetensors

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Write writes f to w as a safetensors file with tensors of dtype F32 or
// F16 (any other dtype is ErrUnsupported).
//
// The output is deterministic: __metadata__ comes first with its keys
// sorted, then the tensors sorted by name, laid out contiguously in the
// same order; the header is padded with spaces to a multiple of 8 bytes so
// that the data buffer is 8-byte aligned. This is the layout of the Rust
// implementation (and so of Python's safetensors) for a file of one dtype.
//
// Write checks all of f before writing the first byte: Kind is not empty;
// Config, if set, is valid JSON; names, vocabulary and metadata are valid
// UTF-8; tensor names are unique, not empty and not "__metadata__"; every
// shape has non-negative dimensions whose product is len(Data); Extra does
// not use the attend.* keys this package writes; and, for F16, no finite
// value overflows to ±Inf (|x| ≥ 65520), which would silently destroy a
// weight. Once writing has begun, only w can fail.
func Write(w io.Writer, f *File, dtype DType) error {
	p, err := planWrite(f, dtype)
	if err != nil {
		return err
	}
	if err := p.writeTo(w); err != nil {
		return fmt.Errorf("models: %w", err)
	}
	return nil
}

// writePlan is a checked File ready to be written.
type writePlan struct {
	dtype   DType
	header  []byte   // JSON, padded
	tensors []Tensor // in file order
}

// planWrite checks f and lays it out (see Write).
func planWrite(f *File, dtype DType) (*writePlan, error) {
	fail := func(format string, args ...any) (*writePlan, error) {
		return nil, fmt.Errorf("models: "+format, args...)
	}
	if dtype != F32 && dtype != F16 {
		return nil, fmt.Errorf("models: cannot write dtype %q (want F32 or F16): %w", dtype, ErrUnsupported)
	}
	meta, err := writeMetadata(f)
	if err != nil {
		return nil, err
	}

	tensors := slices.Clone(f.Tensors)
	slices.SortFunc(tensors, func(a, b Tensor) int { return strings.Compare(a.Name, b.Name) })
	for i, t := range tensors {
		switch {
		case t.Name == "":
			return fail("a tensor has an empty name")
		case t.Name == metadataKey:
			return fail("a tensor is called %q, the safetensors metadata key", metadataKey)
		case !utf8.ValidString(t.Name):
			return fail("tensor name %q is not valid UTF-8", t.Name)
		case i > 0 && tensors[i-1].Name == t.Name:
			return fail("two tensors are called %q", t.Name)
		}
		n, ok := numElements(t.Shape)
		if !ok || slices.ContainsFunc(t.Shape, func(d int) bool { return d < 0 }) {
			return fail("tensor %q: invalid shape %v", t.Name, t.Shape)
		}
		if n != int64(len(t.Data)) {
			return fail("tensor %q: shape %v needs %d values, Data has %d", t.Name, t.Shape, n, len(t.Data))
		}
		if dtype == F16 {
			for j, v := range t.Data {
				if overflowsFloat16(v) {
					return fail("tensor %q: value %g at index %d overflows float16 (largest finite %d)", t.Name, v, j, float16Max)
				}
			}
		}
	}

	h := appendHeader(nil, meta, tensors, dtype)
	if len(h) > maxHeaderSize {
		return fail("header of %d bytes exceeds the limit of %d that readers accept", len(h), maxHeaderSize)
	}
	return &writePlan{dtype: dtype, header: h, tensors: tensors}, nil
}

// appendHeader appends the padded JSON header for tensors, in that order,
// stored as dtype, as the Rust implementation serializes it: compact JSON,
// __metadata__ first (here with sorted keys), then the entries in data
// order, spaces up to a multiple of 8 bytes.
func appendHeader(h []byte, meta map[string]string, tensors []Tensor, dtype DType) []byte {
	h = append(h, `{"`+metadataKey+`":{`...)
	for i, k := range slices.Sorted(maps.Keys(meta)) {
		if i > 0 {
			h = append(h, ',')
		}
		h = appendJSONString(h, k)
		h = append(h, ':')
		h = appendJSONString(h, meta[k])
	}
	h = append(h, '}')
	var offset int64
	size := int64(dtype.Size())
	for _, t := range tensors {
		h = append(h, ',')
		h = appendJSONString(h, t.Name)
		h = append(h, `:{"dtype":"`...)
		h = append(h, dtype...)
		h = append(h, `","shape":[`...)
		for i, d := range t.Shape {
			if i > 0 {
				h = append(h, ',')
			}
			h = strconv.AppendInt(h, int64(d), 10)
		}
		end := offset + int64(len(t.Data))*size
		h = fmt.Appendf(h, `],"data_offsets":[%d,%d]}`, offset, end)
		offset = end
	}
	h = append(h, '}')
	for len(h)%8 != 0 {
		h = append(h, ' ')
	}
	return h
}

// writeMetadata checks the metadata fields of f and returns the
// __metadata__ map to write.
func writeMetadata(f *File) (map[string]string, error) {
	switch {
	case f.Kind == "":
		return nil, fmt.Errorf("models: Kind is empty")
	case !utf8.ValidString(f.Kind):
		return nil, fmt.Errorf("models: Kind %q is not valid UTF-8", f.Kind)
	}
	config := []byte("{}")
	if len(f.Config) > 0 {
		var b bytes.Buffer
		if err := json.Compact(&b, f.Config); err != nil {
			return nil, fmt.Errorf("models: Config is not valid JSON: %v", err)
		}
		if !utf8.Valid(b.Bytes()) {
			return nil, fmt.Errorf("models: Config is not valid UTF-8")
		}
		config = b.Bytes()
	}
	for i, tok := range f.Vocab {
		if !utf8.ValidString(tok) {
			return nil, fmt.Errorf("models: Vocab[%d] %q is not valid UTF-8", i, tok)
		}
	}
	vocab := []string{} // nil would encode as null
	if f.Vocab != nil {
		vocab = f.Vocab
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // keep tokens such as "<eos>" readable
	if err := enc.Encode(vocab); err != nil {
		return nil, fmt.Errorf("models: encoding Vocab: %v", err)
	}

	meta := map[string]string{
		keyKind:    f.Kind,
		keyVersion: strconv.Itoa(FormatVersion),
		keyConfig:  string(config),
		keyVocab:   strings.TrimSuffix(b.String(), "\n"),
	}
	for k, v := range f.Extra {
		if _, reserved := meta[k]; reserved {
			return nil, fmt.Errorf("models: Extra uses the key %q, which Write sets itself", k)
		}
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return nil, fmt.Errorf("models: Extra entry %q is not valid UTF-8", k)
		}
		meta[k] = v
	}
	return meta, nil
}

// overflowsFloat16 reports whether x is finite but rounds to ±Inf as a
// half: |x| ≥ 65520, the midpoint between 65504 and 2¹⁶, rounds up (ties to
// even) and overflows.
func overflowsFloat16(x float32) bool {
	return (x >= 65520 || x <= -65520) && x <= math.MaxFloat32 && x >= -math.MaxFloat32
}

// writeTo writes the planned file to w.
func (p *writePlan) writeTo(w io.Writer) error {
	var prefix [8]byte
	binary.LittleEndian.PutUint64(prefix[:], uint64(len(p.header)))
	if _, err := w.Write(prefix[:]); err != nil {
		return err
	}
	if _, err := w.Write(p.header); err != nil {
		return err
	}
	size := p.dtype.Size()
	buf := make([]byte, chunkSize)
	for _, t := range p.tensors {
		for data := t.Data; len(data) > 0; {
			n := min(len(data), len(buf)/size)
			chunk := buf[:n*size]
			if p.dtype == F16 {
				putFloat16s(chunk, data[:n])
			} else {
				for i, v := range data[:n] {
					binary.LittleEndian.PutUint32(chunk[4*i:], math.Float32bits(v))
				}
			}
			if _, err := w.Write(chunk); err != nil {
				return err
			}
			data = data[n:]
		}
	}
	return nil
}

// appendJSONString appends s as a JSON string, escaping what JSON requires
// and nothing more, as serde_json does: '"', '\\' and control characters.
// s must be valid UTF-8.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				b = append(b, c)
			}
		}
	}
	return append(b, '"')
}
