package asr

import (
	_ "embed"
	"sync"

	"github.com/attend-go/attend/models/safetensors"
)

// defaultFile is the default model, trained by this project (see the
// README's model card), in float16.
//
//go:embed default.safetensors
var defaultFile []byte

// DefaultID names the embedded default model in outputs, logs and batch
// records, by name and content (safetensors.ModelID): attend-asr-default@sha256:… .
//
// Its digest is written here, not computed at start-up: hashing the
// embedded file would read all 19 MB of it into every process's memory
// (TestEmbeddedIDs checks that it matches the file).
var DefaultID = "attend-asr-default@sha256:c6ff9464b26e"

// DefaultSize is the size in bytes of the embedded default model file.
var DefaultSize = len(defaultFile)

var parsedDefault = sync.OnceValues(func() (*Model, error) {
	f, err := safetensors.Parse(defaultFile)
	if err != nil {
		return nil, err
	}
	f.Source = "embedded default ASR model"
	m, err := Load(f)
	if err == nil {
		m.Speller.PackForInference() // shared, read-only: decoding only
	}
	return m, err
})

// Default returns the embedded default model, parsed once and shared:
// models are read-only at inference. Its speller comes packed for
// decoding (Speller.PackForInference): train a copy (Load the file)
// instead.
func Default() (*Model, error) { return parsedDefault() }
