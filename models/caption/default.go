package caption

import (
	_ "embed"
	"sync"

	"github.com/attend-go/attend/models/safetensors"
)

// defaultFile is the default caption decoder, trained by this project on
// the Flickr8k training images' MobileNetV2 7×7×1280 features (see the
// docs/model-card-caption.md and pipeline/captioning), in float16.
//
//go:embed default.safetensors
var defaultFile []byte

// DefaultID names the embedded default model in outputs, logs and batch
// records, by name and content (safetensors.ModelID): attend-caption-default@sha256:… .
var DefaultID = safetensors.ModelID("attend-caption-default", defaultFile)

// DefaultSize is the size in bytes of the embedded default model file.
var DefaultSize = len(defaultFile)

var parsedDefault = sync.OnceValues(func() (*Model, error) {
	f, err := safetensors.Parse(defaultFile)
	if err != nil {
		return nil, err
	}
	f.Source = "embedded default caption model"
	return Load(f)
})

// Default returns the embedded default model, parsed once and shared:
// models are read-only at inference.
func Default() (*Model, error) { return parsedDefault() }
