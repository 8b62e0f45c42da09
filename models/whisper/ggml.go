package whisper

import (
	"fmt"

	"github.com/attend-go/attend/models/ggml"
)

// ggmlSource reads tensors from a whisper.cpp ggml file, dequantized to
// float32. whisper.cpp's converter keeps openai/whisper's names.
type ggmlSource struct{ f *ggml.File }

func (s ggmlSource) tensor(name string) ([]float32, []int, error) {
	t := s.f.Lookup(name)
	if t == nil {
		return nil, nil, fmt.Errorf("whisper: the ggml file has no tensor %q", name)
	}
	v, err := t.Float32s()
	if err != nil {
		return nil, nil, fmt.Errorf("whisper: tensor %q: %w", name, err)
	}
	return v, t.RowMajorShape(), nil
}

// LoadGGML loads a whisper.cpp ggml model file (f32, f16, or quantized
// q4_0, q4_1, q5_0, q5_1, q8_0 weights, dequantized to float32 on load).
// The model keeps the file's mel filters and vocabulary.
func LoadGGML(path string) (*Model, error) {
	f, err := ggml.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("whisper: %w", err)
	}
	return fromGGML(f, path)
}

// fromGGML builds a Model from a read ggml file; path names it in errors.
func fromGGML(f *ggml.File, path string) (*Model, error) {
	h := f.Hyper
	d := Dims{NMels: h.NMels, NAudioCtx: h.NAudioCtx, NAudioState: h.NAudioState, NAudioHead: h.NAudioHead,
		NAudioLayer: h.NAudioLayer, NVocab: h.NVocab, NTextCtx: h.NTextCtx, NTextState: h.NTextState,
		NTextHead: h.NTextHead, NTextLayer: h.NTextLayer}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	if len(f.Tensors) == 0 {
		return nil, fmt.Errorf("whisper: %s holds hyper-parameters, mel filters and a vocabulary but no weights (a header-only test file)", path)
	}
	m, err := newModel(d, ggmlSource{f})
	if err != nil {
		return nil, fmt.Errorf("%w (in %s)", err, path)
	}
	if f.Filters.NMel == d.NMels && f.Filters.NFFT == melBins {
		m.filters = f.Filters.Data
	}
	m.vocab = f.Vocab
	return m, nil
}

// Load reads a Whisper checkpoint, recognizing its format by content:
// whisper.cpp's ggml .bin or a safetensors file (Hugging Face's
// model.safetensors, or openai/whisper's names). Anything else — a
// PyTorch .pt, ONNX, GGUF, a truncated or foreign file — is an error that
// says what is supported and how to convert.
func Load(path string) (*Model, error) {
	format, err := ggml.SniffFile(path)
	if err != nil {
		return nil, fmt.Errorf("whisper: %w", err)
	}
	switch format {
	case ggml.FormatGGML:
		return LoadGGML(path)
	case ggml.FormatSafetensors:
		return LoadSafetensors(path)
	}
	return nil, fmt.Errorf("whisper: %s: unrecognized model format", path)
}

// melBins is the number of frequency bins of Whisper's 400-point STFT.
const melBins = 201

// MelFilters returns the model's mel filterbank (n_mels × 201,
// row-major) when its file stores one (ggml files do), else nil: the
// caller then uses the standard filters for NMels.
func (m *Model) MelFilters() []float32 { return m.filters }

// StoredVocab returns the tokens' bytes in id order as a ggml file
// stores them, else nil: the caller then uses the bundled vocabulary.
func (m *Model) StoredVocab() [][]byte { return m.vocab }
