package caption

import (
	_ "embed"
	"sync"

	"github.com/attend-go/attend/models/safetensors"
)

// defaultFile is the default caption decoder, trained by this project on
// the Flickr8k training images' MobileNet-EdgeTPU 7×7×1280 features (see
// docs/model-card-caption.md and pipeline/captioning), in float16. Its
// features note (DefaultExtra) names that encoder by SHA-256, and the
// captioner locates the encoder it names.
//
//go:embed default.safetensors
var defaultFile []byte

// defaultMemoryFile is the memory of the Flickr8k training images that
// reranks the default model's candidates by consensus (pipeline/captioning's
// Memory, made by "caption memory" from the default model's features
// cache): keys of their MobileNet-EdgeTPU features and their captions.
//
//go:embed default-memory.safetensors
var defaultMemoryFile []byte

// DefaultMemoryFile returns the embedded default memory's file, parsed
// once (nil and the error if it does not parse): pipeline/captioning
// reads it.
var DefaultMemoryFile = sync.OnceValues(func() (*safetensors.File, error) {
	f, err := safetensors.Parse(defaultMemoryFile)
	if err != nil {
		return nil, err
	}
	f.Source = "embedded default caption memory"
	return f, nil
})

// DefaultID names the embedded default model in outputs, logs and batch
// records, by name and content (safetensors.ModelID): attend-caption-default@sha256:… .
//
// Its digest is written here, not computed at start-up: hashing the
// embedded file would read all 15 MB of it into every process's memory
// (TestEmbeddedIDs checks that it matches the file).
var DefaultID = "attend-caption-default@sha256:585bf7a28193"

// DefaultSize is the size in bytes of the embedded default model file.
var DefaultSize = len(defaultFile)

// parsedDefaultFile is the embedded file parsed (its header read and
// checked; tensors are decoded by Load), once.
var parsedDefaultFile = sync.OnceValues(func() (*safetensors.File, error) {
	f, err := safetensors.Parse(defaultFile)
	if err != nil {
		return nil, err
	}
	f.Source = "embedded default caption model"
	return f, nil
})

var parsedDefault = sync.OnceValues(func() (*Model, error) {
	f, err := parsedDefaultFile()
	if err != nil {
		return nil, err
	}
	m, err := Load(f)
	if err == nil {
		m.PackForInference() // shared, read-only: captioning only
	}
	return m, err
})

// DefaultExtra returns the metadata of the embedded default model file
// beside its config and vocabulary (safetensors.File.Extra): among them
// "attend.features", the grid, preprocessing and encoder SHA-256 of the
// features it was trained on. It reads the file's header only, not its
// weights. Nil if the file does not parse.
func DefaultExtra() map[string]string {
	f, err := parsedDefaultFile()
	if err != nil {
		return nil
	}
	return f.Extra
}

// Default returns the embedded default model, parsed once and shared:
// models are read-only at inference. It comes packed for inference
// (Model.PackForInference): train a copy (Load the file) instead.
func Default() (*Model, error) { return parsedDefault() }
