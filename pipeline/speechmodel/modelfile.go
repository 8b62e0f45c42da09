package speechmodel

import (
	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/safetensors"
	"github.com/attend-go/attend/pipeline/internal/modelfile"
)

// modelFromTensors loads the model part of a file that may carry extra
// (optimizer) tensors.
func modelFromTensors(f *safetensors.File) (*asr.Model, error) {
	return asr.Load(models.WithoutOptimizer(f))
}

// LoadModel reads an ASR model file: a shipped model, a best.safetensors
// or a training checkpoint.
func LoadModel(path string) (*asr.Model, error) {
	f, err := modelfile.Read(path, asr.Kind)
	if err != nil {
		return nil, err
	}
	return modelFromTensors(f)
}

// ExportModel writes the model part of an ASR model file or training
// checkpoint to dst, in float16 (half the size; what the embedded default
// ships as) or float32.
func ExportModel(src, dst string, half bool) (*asr.Model, error) {
	m, err := LoadModel(src)
	if err != nil {
		return nil, err
	}
	f, err := m.File()
	if err != nil {
		return nil, err
	}
	dtype := safetensors.F32
	if half {
		dtype = safetensors.F16
	}
	return m, safetensors.WriteFile(dst, f, dtype)
}

// OpenModel loads an ASR model file, or the embedded default model for
// the empty path.
func OpenModel(path string) (*asr.Model, error) {
	if path == "" {
		return asr.Default()
	}
	return LoadModel(path)
}

// ErrLanguageModelFile marks a model file that is a language model (ARPA
// text or gzip), given where a speech model was expected.
var ErrLanguageModelFile = modelfile.ErrLanguageModelFile
