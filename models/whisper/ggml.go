package whisper

import (
	"encoding/binary"
	"fmt"
	"io"
	"os"

	"github.com/attend-go/attend/models/ggml"
)

// ggmlSource reads tensors from a whisper.cpp ggml file one at a time:
// f is its index (ggml.ReadIndex, or a whole ggml.Read), r the file, read
// for each tensor whose Data f does not hold. whisper.cpp's converter
// keeps openai/whisper's names.
type ggmlSource struct {
	f *ggml.File
	r io.ReaderAt
}

// lookup returns name's tensor with its data.
func (s ggmlSource) lookup(name string) (ggml.Tensor, error) {
	t := s.f.Lookup(name)
	if t == nil {
		return ggml.Tensor{}, fmt.Errorf("whisper: the ggml file has no tensor %q", name)
	}
	c := *t
	if c.Data == nil {
		if err := c.ReadData(s.r); err != nil {
			return ggml.Tensor{}, fmt.Errorf("whisper: %w", err)
		}
	}
	return c, nil
}

func (s ggmlSource) tensor(name string) ([]float32, []int, error) {
	t, err := s.lookup(name)
	if err != nil {
		return nil, nil, err
	}
	v, err := t.Float32s()
	if err != nil {
		return nil, nil, fmt.Errorf("whisper: tensor %q: %w", name, err)
	}
	return v, t.RowMajorShape(), nil
}

// halfChunk is how many bytes of f16 data matrix reads at a time.
const halfChunk = 1 << 20

// matrix implements matrixSource: f16 data becomes the half copy directly
// (read in chunks, never as float32), quantized data is kept as stored
// when keepQuant or when its type has a fast one-row kernel
// (ggml.FastMatVec), anything else goes through float32 (newMatrix).
func (s ggmlSource) matrix(name string, keepQuant bool) (matrix, []int, error) {
	t := s.f.Lookup(name)
	if t == nil {
		return matrix{}, nil, fmt.Errorf("whisper: the ggml file has no tensor %q", name)
	}
	shape := t.RowMajorShape()
	switch {
	case t.Type == ggml.F16 && useHalfAVX2 && len(shape) == 2:
		h, owner, err := s.halfData(t)
		if err != nil {
			return matrix{}, nil, err
		}
		return matrix{half: h, rows: shape[0], cols: shape[1], owner: owner}, shape, nil
	case t.Type.Quantized() && len(shape) == 2:
		n := t.DataSize()
		if n < 0 || (t.Data != nil && int64(len(t.Data)) != n) {
			return matrix{}, nil, fmt.Errorf("whisper: tensor %q: %v %v is malformed", name, t.Type, t.Shape)
		}
		q, owner := allocWeights(int(n))
		if keepQuant || ggml.FastMatVec(t.Type) {
			if err := s.readData(t, q); err != nil {
				return matrix{}, nil, err
			}
			return matrix{q: q, qtype: t.Type, rows: shape[0], cols: shape[1], owner: owner}, shape, nil
		}
		// Dequantized once, straight into off-heap float32.
		raw := t.Data
		if raw == nil {
			raw = make([]byte, n)
			if err := s.readData(t, raw); err != nil {
				return matrix{}, nil, err
			}
		}
		v, owner := allocFloat32(t.Len())
		ggml.DequantizeRow(v, raw, t.Type)
		return matrix{f32: v, rows: shape[0], cols: shape[1], owner: owner}, shape, nil
	}
	v, shape, err := s.tensor(name)
	if err != nil || len(shape) != 2 {
		return matrix{f32: v}, shape, err
	}
	return newMatrix(v, shape[0], shape[1]), shape, nil
}

// readData fills dst with t's data: from Data when the index holds it,
// else from the file.
func (s ggmlSource) readData(t *ggml.Tensor, dst []byte) error {
	if t.Data != nil {
		copy(dst, t.Data)
		return nil
	}
	if n, err := s.r.ReadAt(dst, t.Offset); n < len(dst) {
		return fmt.Errorf("whisper: reading tensor %q: %w", t.Name, err)
	}
	return nil
}

// halfData returns an f16 tensor's values as binary16 bits, from Data
// when the index holds it, else read from the file in chunks.
func (s ggmlSource) halfData(t *ggml.Tensor) ([]uint16, *offHeap, error) {
	n := t.DataSize()
	if n < 0 || n%2 != 0 || (t.Data != nil && int64(len(t.Data)) != n) {
		return nil, nil, fmt.Errorf("whisper: tensor %q: f16 %v is malformed", t.Name, t.Shape)
	}
	h, owner := allocHalf(int(n / 2))
	if t.Data != nil {
		for i := range h {
			h[i] = binary.LittleEndian.Uint16(t.Data[2*i:])
		}
		return h, owner, nil
	}
	buf := make([]byte, min(n, halfChunk))
	for off := int64(0); off < n; off += int64(len(buf)) {
		b := buf[:min(int64(len(buf)), n-off)]
		if n, err := s.r.ReadAt(b, t.Offset+off); n < len(b) {
			return nil, nil, fmt.Errorf("whisper: reading tensor %q: %w", t.Name, err)
		}
		dst := h[off/2:][:len(b)/2]
		for i := range dst {
			dst[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
	}
	return h, owner, nil
}

// LoadGGML loads a whisper.cpp ggml model file (f32, f16, or quantized
// q4_0, q4_1, q5_0, q5_1, q8_0 weights). It reads the file's index, then
// one tensor at a time: f16 matrices are kept in half precision,
// quantized matrices stay quantized (the decoder's only where the machine
// has the assembly kernels), the rest is dequantized to float32 (matrix). The model keeps the file's mel filters and
// vocabulary.
func LoadGGML(path string) (*Model, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("whisper: %w", err)
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("whisper: %w", err)
	}
	f, err := ggml.ReadIndex(fh, st.Size())
	if err != nil {
		return nil, fmt.Errorf("whisper: %w (file %s)", err, path)
	}
	return fromGGML(f, fh, path)
}

// fromGGML builds a Model from a ggml file's index f, reading from r the
// tensors f holds no data for; path names it in errors.
func fromGGML(f *ggml.File, r io.ReaderAt, path string) (*Model, error) {
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
	m, err := newModel(d, ggmlSource{f: f, r: r})
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
