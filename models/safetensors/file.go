package safetensors

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// FormatVersion is the version of the attend model file format that this
// build writes, and the newest it reads.
const FormatVersion = 1

// The __metadata__ entries of an attend model file.
const (
	keyKind    = "attend.kind"
	keyVersion = "attend.format_version"
	keyConfig  = "attend.config"
	keyVocab   = "attend.vocab"
)

// Prefixes of the optimizer tensors a training checkpoint holds besides
// the model's own (models.Adam.AppendTensors): adam.m/NAME and
// adam.v/NAME, the first and second moments of parameter NAME.
const (
	AdamMPrefix = "adam.m/"
	AdamVPrefix = "adam.v/"
)

// IsOptimizerTensor reports whether name is an optimizer tensor rather
// than a model weight.
func IsOptimizerTensor(name string) bool {
	return strings.HasPrefix(name, AdamMPrefix) || strings.HasPrefix(name, AdamVPrefix)
}

// Tensor is a named float32 tensor, row-major (C order).
type Tensor struct {
	Name  string
	Shape []int     // empty for a scalar
	Data  []float32 // len(Data) is the product of Shape
}

// File is the content of an attend model file: a safetensors file whose
// __metadata__ says what model the tensors belong to. See the package
// documentation for the layout.
type File struct {
	// Kind names the model, such as "asr" or "caption". Required.
	Kind string
	// FormatVersion is the file's format version, set by reading.
	// Write ignores it and always writes FormatVersion.
	FormatVersion int
	// Config is the model's configuration as JSON, the record the model
	// is rebuilt from. Empty means {}.
	Config json.RawMessage
	// Vocab is the output vocabulary, one entry per token id.
	Vocab []string
	// Extra holds the other __metadata__ entries, which this package
	// passes through untouched. It must not use the attend.* keys above.
	// Reading leaves it nil when there are none.
	Extra map[string]string
	// Tensors are the parameters. Reading returns them in file order,
	// which for files this package wrote is sorted by name; Write accepts
	// any order and sorts.
	Tensors []Tensor
	// Source names the file in error messages: ReadFile sets it to the
	// path. It is not stored.
	Source string
}

// ReadFile reads and validates the attend model file at path.
// Error messages name the file as path.
func ReadFile(path string) (*File, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	defer fh.Close() // read-only: nothing to lose on Close
	st, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("models: %w", err)
	}
	if st.IsDir() {
		return nil, fmt.Errorf("models: %s: is a directory", path)
	}
	return read(fh, st.Size(), path)
}

// Parse reads an attend model file held in memory, such as one embedded
// with go:embed.
func Parse(data []byte) (*File, error) {
	return read(bytes.NewReader(data), int64(len(data)), "")
}

// Read reads an attend model file of size bytes from r. Tensor data is
// read in chunks straight into the result, so the file is never held in
// memory as a whole.
//
// It validates everything NewReader does, then the attend metadata:
// attend.kind is present and not empty; attend.format_version is a decimal
// integer from 1 to FormatVersion (a newer one is ErrUnsupported);
// attend.config is valid JSON; attend.vocab is a JSON array of strings.
// Every tensor must be F32, F16, BF16 or F64 (ErrUnsupported otherwise);
// values are converted to float32 as by Reader.Float32s.
func Read(r io.ReaderAt, size int64) (*File, error) {
	return read(r, size, "")
}

// read is Read naming the file source in errors.
func read(r io.ReaderAt, size int64, source string) (*File, error) {
	s, err := newReader(r, size, source)
	if err != nil {
		return nil, err
	}
	f := &File{Source: source}
	if err := f.setMetadata(s.metadata); err != nil {
		return nil, err
	}
	for _, t := range s.tensors {
		if _, err := s.lookup(t.Name); err != nil {
			return nil, err
		}
	}
	f.Tensors = make([]Tensor, len(s.tensors))
	buf := make([]byte, chunkSize)
	for i, t := range s.tensors {
		data := make([]float32, t.Len())
		if err := decode(s, t, data, buf); err != nil {
			return nil, err
		}
		f.Tensors[i] = Tensor{Name: t.Name, Shape: t.Shape, Data: data}
	}
	return f, nil
}

// setMetadata fills the metadata fields of f from a header's __metadata__.
func (f *File) setMetadata(m map[string]string) error {
	corrupt := func(format string, args ...any) error {
		return fileErrorf(f.Source, ErrCorrupt, format, args...)
	}
	kind, ok := m[keyKind]
	if !ok {
		return corrupt("__metadata__ has no %q: not an attend model file (NewReader reads any safetensors file)", keyKind)
	}
	if kind == "" {
		return corrupt("%s is empty", keyKind)
	}
	f.Kind = kind

	v, ok := m[keyVersion]
	if !ok {
		return corrupt("__metadata__ has no %q", keyVersion)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || strconv.Itoa(n) != v {
		return corrupt("%s is %q, want a positive decimal integer", keyVersion, clip([]byte(v)))
	}
	if n > FormatVersion {
		return fileErrorf(f.Source, ErrUnsupported, "format version %d is newer than this build reads (%d)", n, FormatVersion)
	}
	f.FormatVersion = n

	config, ok := m[keyConfig]
	if !ok {
		return corrupt("__metadata__ has no %q", keyConfig)
	}
	if !json.Valid([]byte(config)) {
		return corrupt("%s is not valid JSON: %q", keyConfig, clip([]byte(config)))
	}
	f.Config = json.RawMessage(config)

	vocab, ok := m[keyVocab]
	if !ok {
		return corrupt("__metadata__ has no %q", keyVocab)
	}
	if !strings.HasPrefix(strings.TrimLeft(vocab, " \t\r\n"), "[") {
		return corrupt("%s is %q, want a JSON array of strings", keyVocab, clip([]byte(vocab)))
	}
	if err := json.Unmarshal([]byte(vocab), &f.Vocab); err != nil {
		return corrupt("%s is not a JSON array of strings: %v", keyVocab, err)
	}

	for k, v := range m {
		switch k {
		case keyKind, keyVersion, keyConfig, keyVocab:
			continue
		}
		if f.Extra == nil {
			f.Extra = make(map[string]string)
		}
		f.Extra[k] = v
	}
	return nil
}

// Tensor returns the tensor called name. The lookup is linear: models have
// tens to hundreds of tensors, read once.
func (f *File) Tensor(name string) (Tensor, bool) {
	for _, t := range f.Tensors {
		if t.Name == name {
			return t, true
		}
	}
	return Tensor{}, false
}

// Expect returns the values of the tensor called name, which must have
// exactly the given shape; otherwise the error, wrapping ErrMismatch,
// names the tensor and both shapes.
func (f *File) Expect(name string, shape ...int) ([]float32, error) {
	t, ok := f.Tensor(name)
	if !ok {
		return nil, fileErrorf(f.Source, ErrMismatch, "no tensor %q", name)
	}
	if !equalShapes(t.Shape, shape) {
		return nil, fileErrorf(f.Source, ErrMismatch, "tensor %q has shape %v, want %v", name, t.Shape, shape)
	}
	if n, ok := numElements(shape); !ok || int64(len(t.Data)) != n {
		return nil, fileErrorf(f.Source, ErrMismatch, "tensor %q holds %d values, shape %v needs %d", name, len(t.Data), shape, n)
	}
	return t.Data, nil
}

// equalShapes reports whether a and b list the same dimensions, treating
// nil and empty (a scalar) alike.
func equalShapes(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// CheckNames reports, in one error wrapping ErrMismatch, every tensor the
// model wants that the file lacks and every tensor the file has that the
// model does not want. Loaders call it after taking their tensors with
// Expect, so that a file with stray weights (a renamed layer, a different
// model size) fails instead of loading partly.
func (f *File) CheckNames(want []string) error {
	wanted := make(map[string]bool, len(want))
	for _, name := range want {
		wanted[name] = true
	}
	have := make(map[string]bool, len(f.Tensors))
	var missing, unexpected []string
	for _, t := range f.Tensors {
		have[t.Name] = true
		if !wanted[t.Name] {
			unexpected = append(unexpected, t.Name)
		}
	}
	for _, name := range want {
		if !have[name] {
			missing = append(missing, name)
			have[name] = true // list a name wanted twice once
		}
	}
	if len(missing) == 0 && len(unexpected) == 0 {
		return nil
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+quoteList(missing))
	}
	if len(unexpected) > 0 {
		parts = append(parts, "unexpected "+quoteList(unexpected))
	}
	return fileErrorf(f.Source, ErrMismatch, "tensors do not match the model: %s", strings.Join(parts, "; "))
}

// quoteList formats names for an error message, at most 8 of them.
func quoteList(names []string) string {
	const max = 8
	var b strings.Builder
	for i, name := range names {
		if i == max {
			fmt.Fprintf(&b, " and %d more", len(names)-max)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(name))
	}
	return b.String()
}

// CheckKind returns an error wrapping ErrKind unless the file holds a model
// of kind want, such as:
//
//	models: model.safetensors: kind "caption", want "asr"
func (f *File) CheckKind(want string) error {
	if f.Kind != want {
		return fileErrorf(f.Source, ErrKind, "kind %q, want %q", f.Kind, want)
	}
	return nil
}

// DecodeConfig decodes the file's config into v, a pointer to the model's
// config struct. A field the struct lacks is an error (wrapping
// ErrMismatch): it comes from a different version of the model, and
// dropping it silently could rebuild a different network.
func (f *File) DecodeConfig(v any) error {
	config := f.Config
	if len(config) == 0 {
		config = json.RawMessage("{}")
	}
	d := json.NewDecoder(bytes.NewReader(config))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fileErrorf(f.Source, ErrMismatch, "config: %v", err)
	}
	if d.More() {
		return fileErrorf(f.Source, ErrMismatch, "config: more than one JSON value")
	}
	return nil
}
