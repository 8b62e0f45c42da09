package ggml

// Magic is the file's first four bytes as a little-endian uint32,
// GGML_FILE_MAGIC: "ggml" read as a number, "lmgg" on disk.
const Magic = 0x67676d6c

// QuantVersion is ggml's GGML_QNT_VERSION, the block layout this package
// reads and writes; a quantized file stores it in its ftype as
// ftype + QuantVersionFactor·QuantVersion.
const (
	QuantVersion       = 2
	QuantVersionFactor = 1000
)

// MaxDims is ggml's GGML_MAX_DIMS, the most dimensions a tensor has.
const MaxDims = 4

// maxNameLen bounds a tensor name; ggml's own tensors hold 64 bytes
// (GGML_MAX_NAME), so anything this long is a corrupt length.
const maxNameLen = 4096

// Hyper holds the eleven int32 hyper-parameters at the head of the file,
// in file order (whisper.cpp's whisper_hparams).
type Hyper struct {
	NVocab      int // tokens the model's embedding has: 51864 (English-only), 51865, 51866 (large-v3)
	NAudioCtx   int // encoder positions: 1500
	NAudioState int // encoder width: 384 (tiny) … 1280 (large)
	NAudioHead  int // encoder attention heads
	NAudioLayer int // encoder blocks
	NTextCtx    int // decoder positions: 448
	NTextState  int // decoder width (whisper.cpp requires it to equal NAudioState)
	NTextHead   int // decoder attention heads
	NTextLayer  int // decoder blocks
	NMels       int // mel bins of the input: 80, or 128 for large-v3
	// FType is the stored ftype: FileType() + QuantVersionFactor ×
	// QuantVersion() (2007 for a q8_0 file, 1 for the converter's f16).
	FType int
}

// FileType returns the ftype without its quantization version.
func (h Hyper) FileType() FileType { return FileType(h.FType % QuantVersionFactor) }

// QuantVersion returns the quantization version stored in the ftype: 0
// for the converter's f32/f16 files, 2 for today's quantized files.
func (h Hyper) QuantVersion() int { return h.FType / QuantVersionFactor }

// fields returns the hyper-parameters in file order, with their names
// for messages.
func (h *Hyper) fields() []struct {
	name string
	v    *int
} {
	return []struct {
		name string
		v    *int
	}{
		{"n_vocab", &h.NVocab}, {"n_audio_ctx", &h.NAudioCtx}, {"n_audio_state", &h.NAudioState},
		{"n_audio_head", &h.NAudioHead}, {"n_audio_layer", &h.NAudioLayer}, {"n_text_ctx", &h.NTextCtx},
		{"n_text_state", &h.NTextState}, {"n_text_head", &h.NTextHead}, {"n_text_layer", &h.NTextLayer},
		{"n_mels", &h.NMels}, {"ftype", &h.FType},
	}
}

// MelFilters is the mel filterbank stored in the file, openai/whisper's
// mel_filters.npz entry for the model: Data is row-major [NMel][NFFT],
// NFFT = n_fft/2 + 1 = 201 frequency bins.
type MelFilters struct {
	NMel, NFFT int
	Data       []float32
}

// File is a whisper.cpp ggml model file.
type File struct {
	Hyper   Hyper
	Filters MelFilters
	// Vocab holds the stored tokens' bytes in id order: BPE tokens, which
	// need not be valid UTF-8. A file may store fewer tokens than
	// Hyper.NVocab; whisper.cpp names the rest (special and timestamp
	// tokens) itself.
	Vocab [][]byte
	// Tensors are in file order; Lookup finds one by name. A header-only
	// file (whisper.cpp's for-tests-ggml-*.bin) has none.
	Tensors []Tensor

	index map[string]int // name → position in Tensors, built by Read
}

// Lookup returns the tensor called name, or nil.
func (f *File) Lookup(name string) *Tensor {
	if i, ok := f.index[name]; ok && i < len(f.Tensors) && f.Tensors[i].Name == name {
		return &f.Tensors[i]
	}
	for i := range f.Tensors {
		if f.Tensors[i].Name == name {
			return &f.Tensors[i]
		}
	}
	return nil
}
