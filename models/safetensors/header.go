package safetensors

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// metadataKey is the header entry that holds the free-form string map
// instead of a tensor.
const metadataKey = "__metadata__"

// TensorInfo describes one tensor entry of a safetensors header.
type TensorInfo struct {
	Name  string
	DType DType
	// Shape is row-major (C order); an empty shape is a scalar with one
	// element, a zero dimension makes an empty tensor.
	Shape []int
	// Begin and End are the header's data_offsets: the tensor's bytes are
	// [Begin, End) of the data buffer, which starts right after the header.
	Begin, End int64
}

// Len returns the number of elements, the product of the shape.
// It is only meaningful for entries that passed validation.
func (t TensorInfo) Len() int {
	n, _ := numElements(t.Shape)
	return int(n)
}

// header is the decoded JSON header of a safetensors file, before its
// offsets are checked against the file.
type header struct {
	metadata map[string]string // nil when the header has none
	tensors  []TensorInfo      // in the header's order
}

// parseHeader decodes the JSON header b (without the length prefix).
//
// It is stricter than encoding/json where leniency would make a file
// ambiguous: a key given twice, at the top level or within an entry, is an
// error rather than one of the two winning silently, keys match exactly
// (not case-insensitively), and invalid UTF-8 is an error rather than
// being replaced (the Rust implementation rejects it too). Like the Rust
// implementation it ignores unknown fields in an entry and accepts
// trailing JSON whitespace, of which the spec's space padding is one kind.
func parseHeader(b []byte) (*header, error) {
	if len(b) == 0 || b[0] != '{' {
		return nil, errors.New("header does not start with '{'")
	}
	if !utf8.Valid(b) {
		return nil, errors.New("header is not valid UTF-8")
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if _, err := d.Token(); err != nil { // the '{' checked above
		return nil, jsonError(err)
	}
	h := &header{}
	seen := make(map[string]bool)
	for d.More() {
		key, err := stringToken(d)
		if err != nil {
			return nil, err
		}
		if seen[key] {
			return nil, fmt.Errorf("header has key %q twice", key)
		}
		seen[key] = true
		if key == metadataKey {
			if h.metadata, err = parseMetadata(d); err != nil {
				return nil, err
			}
			continue
		}
		t, err := parseEntry(d, key)
		if err != nil {
			return nil, err
		}
		h.tensors = append(h.tensors, t)
	}
	if _, err := d.Token(); err != nil { // the closing '}'
		return nil, jsonError(err)
	}
	end := d.InputOffset()
	if i := bytes.IndexFunc(b[end:], func(r rune) bool { return !isJSONSpace(r) }); i >= 0 {
		stray := bytes.TrimRightFunc(b[end+int64(i):], isJSONSpace)
		return nil, fmt.Errorf("header has %q after its closing '}' at byte %d", clip(stray), end+int64(i))
	}
	return h, nil
}

// parseMetadata decodes the value of __metadata__: an object of strings,
// or null.
func parseMetadata(d *json.Decoder) (map[string]string, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, jsonError(err)
	}
	if tok == nil {
		return nil, nil
	}
	if tok != json.Delim('{') {
		return nil, fmt.Errorf("%s is %s, want an object of strings", metadataKey, describe(tok))
	}
	m := make(map[string]string)
	for d.More() {
		key, err := stringToken(d)
		if err != nil {
			return nil, err
		}
		if _, dup := m[key]; dup {
			return nil, fmt.Errorf("%s has key %q twice", metadataKey, key)
		}
		tok, err := d.Token()
		if err != nil {
			return nil, jsonError(err)
		}
		v, ok := tok.(string)
		if !ok {
			return nil, fmt.Errorf("%s[%q] is %s, want a string", metadataKey, key, describe(tok))
		}
		m[key] = v
	}
	if _, err := d.Token(); err != nil {
		return nil, jsonError(err)
	}
	return m, nil
}

// parseEntry decodes one tensor entry:
// {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]}.
func parseEntry(d *json.Decoder, name string) (TensorInfo, error) {
	t := TensorInfo{Name: name}
	fail := func(format string, args ...any) (TensorInfo, error) {
		return TensorInfo{}, fmt.Errorf("tensor %q: %s", name, fmt.Sprintf(format, args...))
	}
	tok, err := d.Token()
	if err != nil {
		return TensorInfo{}, jsonError(err)
	}
	if tok != json.Delim('{') {
		return fail("entry is %s, want an object", describe(tok))
	}
	var hasDType, hasShape, hasOffsets bool
	for d.More() {
		key, err := stringToken(d)
		if err != nil {
			return TensorInfo{}, err
		}
		switch key {
		case "dtype":
			if hasDType {
				return fail("dtype given twice")
			}
			hasDType = true
			tok, err := d.Token()
			if err != nil {
				return TensorInfo{}, jsonError(err)
			}
			s, ok := tok.(string)
			if !ok {
				return fail("dtype is %s, want a string", describe(tok))
			}
			t.DType = DType(s)
		case "shape":
			if hasShape {
				return fail("shape given twice")
			}
			hasShape = true
			dims, err := intArray(d, strconv.IntSize)
			if err != nil {
				return fail("shape: %v", err)
			}
			t.Shape = make([]int, len(dims))
			for i, v := range dims {
				t.Shape[i] = int(v)
			}
		case "data_offsets":
			if hasOffsets {
				return fail("data_offsets given twice")
			}
			hasOffsets = true
			offs, err := intArray(d, 64)
			if err != nil {
				return fail("data_offsets: %v", err)
			}
			if len(offs) != 2 {
				return fail("data_offsets has %d numbers, want 2", len(offs))
			}
			t.Begin, t.End = offs[0], offs[1]
		default: // unknown fields are ignored, as by the Rust implementation
			var skip json.RawMessage
			if err := d.Decode(&skip); err != nil {
				return TensorInfo{}, jsonError(err)
			}
		}
	}
	if _, err := d.Token(); err != nil {
		return TensorInfo{}, jsonError(err)
	}
	switch {
	case !hasDType:
		return fail("no dtype")
	case !hasShape:
		return fail("no shape")
	case !hasOffsets:
		return fail("no data_offsets")
	}
	return t, nil
}

// intArray decodes a JSON array of non-negative integers that fit in
// bitSize bits (signed).
func intArray(d *json.Decoder, bitSize int) ([]int64, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, jsonError(err)
	}
	if tok != json.Delim('[') {
		return nil, fmt.Errorf("%s, want an array of integers", describe(tok))
	}
	var out []int64
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return nil, jsonError(err)
		}
		num, ok := tok.(json.Number)
		if !ok {
			return nil, fmt.Errorf("element %d is %s, want an integer", len(out), describe(tok))
		}
		v, err := strconv.ParseInt(string(num), 10, bitSize)
		if err != nil || v < 0 || strings.HasPrefix(string(num), "-") {
			return nil, fmt.Errorf("element %d is %s, want a non-negative integer below 2^%d", len(out), clip([]byte(num)), bitSize-1)
		}
		out = append(out, v)
	}
	if _, err := d.Token(); err != nil {
		return nil, jsonError(err)
	}
	return out, nil
}

// stringToken reads an object key.
func stringToken(d *json.Decoder) (string, error) {
	tok, err := d.Token()
	if err != nil {
		return "", jsonError(err)
	}
	s, ok := tok.(string)
	if !ok { // encoding/json reports non-string keys itself; kept for safety
		return "", fmt.Errorf("key is %s, want a string", describe(tok))
	}
	return s, nil
}

// jsonError rephrases a decoding error of the header.
func jsonError(err error) error {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return fmt.Errorf("header is not valid JSON: %v (at byte %d)", se, se.Offset)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("header is not valid JSON: unexpected end")
	}
	return fmt.Errorf("header is not valid JSON: %v", err)
}

// describe names the kind of a JSON token for an error message.
func describe(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "the number " + clip([]byte(v))
	case string:
		return "the string " + strconv.Quote(clip([]byte(v)))
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		return "an array"
	}
	return fmt.Sprintf("%v", tok)
}

// clip shortens b for an error message.
func clip(b []byte) string {
	const max = 32
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// isJSONSpace reports whether r is whitespace between JSON tokens.
func isJSONSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' }

// subByteDTypes are safetensors dtypes with fewer than 8 bits per element,
// which this package does not read.
var subByteDTypes = map[DType]bool{"F4": true, "F6_E2M3": true, "F6_E3M2": true}

// checkLayout validates the entries of h against a data buffer of dataLen
// bytes and returns them in data order. The rules follow the Rust
// implementation: every entry's byte count equals its element count times
// the dtype size, and the entries, sorted by offset, tile the data buffer
// exactly — no overlaps, no holes, no trailing bytes.
func checkLayout(h *header, dataLen int64) ([]TensorInfo, *layoutError) {
	for _, t := range h.tensors {
		size := t.DType.Size()
		if size == 0 {
			if subByteDTypes[t.DType] {
				return nil, &layoutError{ErrUnsupported, fmt.Sprintf("tensor %q: dtype %s has less than a byte per element, which this package does not read", t.Name, t.DType)}
			}
			return nil, &layoutError{ErrCorrupt, fmt.Sprintf("tensor %q: unknown dtype %q", t.Name, clip([]byte(t.DType)))}
		}
		offsets := fmt.Sprintf("data_offsets [%d %d]", t.Begin, t.End)
		if t.End < t.Begin {
			return nil, &layoutError{ErrCorrupt, fmt.Sprintf("tensor %q: %s end before they begin", t.Name, offsets)}
		}
		if t.End > dataLen {
			return nil, &layoutError{ErrCorrupt, fmt.Sprintf("tensor %q: %s run past the end of the %d-byte data buffer (file truncated?)", t.Name, offsets, dataLen)}
		}
		n, ok := numElements(t.Shape)
		if ok && n > math.MaxInt64/int64(size) {
			ok = false
		}
		if !ok {
			return nil, &layoutError{ErrCorrupt, fmt.Sprintf("tensor %q: shape %v %s is too large to address", t.Name, t.Shape, t.DType)}
		}
		if have, need := t.End-t.Begin, n*int64(size); have != need {
			return nil, &layoutError{ErrCorrupt, fmt.Sprintf("tensor %q: %s hold %d bytes, shape %v %s needs %d", t.Name, offsets, have, t.Shape, t.DType, need)}
		}
	}

	sorted := slices.Clone(h.tensors)
	slices.SortStableFunc(sorted, func(a, b TensorInfo) int {
		return cmp.Or(cmp.Compare(a.Begin, b.Begin), cmp.Compare(a.End, b.End))
	})
	var next int64 // where the next entry must begin
	for i, t := range sorted {
		switch {
		case t.Begin < next:
			p := sorted[i-1]
			return nil, &layoutError{ErrCorrupt, fmt.Sprintf("tensors %q [%d %d] and %q [%d %d] overlap", p.Name, p.Begin, p.End, t.Name, t.Begin, t.End)}
		case t.Begin > next:
			return nil, &layoutError{ErrCorrupt, fmt.Sprintf("data bytes [%d %d) belong to no tensor (a hole before %q)", next, t.Begin, t.Name)}
		}
		next = t.End
	}
	if next != dataLen {
		return nil, &layoutError{ErrCorrupt, fmt.Sprintf("data bytes [%d %d) after the last tensor belong to no tensor", next, dataLen)}
	}
	return sorted, nil
}

// layoutError is a checkLayout failure and the sentinel it falls under.
type layoutError struct {
	sentinel error
	msg      string
}

// numElements returns the product of shape, and false if it overflows an
// int64. A zero dimension makes the product zero whatever the others are.
func numElements(shape []int) (int64, bool) {
	if slices.Contains(shape, 0) {
		return 0, true
	}
	n := int64(1)
	for _, d := range shape {
		if d < 0 || n > math.MaxInt64/int64(d) {
			return 0, false
		}
		n *= int64(d)
	}
	return n, true
}
