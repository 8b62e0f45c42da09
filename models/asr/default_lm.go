package asr

import (
	"bytes"
	_ "embed"
	"sync"

	"github.com/attend-go/attend/models/ngram"
	"github.com/attend-go/attend/models/safetensors"
)

// defaultWordLM is the default word language model, a 3-gram
// (modified Kneser-Ney) trained by "asr train-lm" on the text the README's
// model card lists, in gzip-compressed ARPA format.
//
//go:embed default-lm.arpa.gz
var defaultWordLM []byte

// DefaultWordLMSize is the size in bytes of the embedded word LM file.
var DefaultWordLMSize = len(defaultWordLM)

// DefaultWordLMID names the embedded word LM by name and content.
var DefaultWordLMID = safetensors.ModelID("attend-asr-lm-default", defaultWordLM)

var parsedWordLM = sync.OnceValues(func() (*ngram.Model, error) {
	return ngram.Read(bytes.NewReader(defaultWordLM), nil)
})

// DefaultWordLM returns the embedded default word language model, parsed
// once and shared: models are read-only at inference.
func DefaultWordLM() (*ngram.Model, error) { return parsedWordLM() }
