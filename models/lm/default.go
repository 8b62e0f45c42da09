package lm

import (
	"bytes"
	_ "embed"
	"sync"

	"github.com/attend-go/attend/models/lm/ngram"
)

// defaultNGram is the default word language model, a 3-gram
// (modified Kneser-Ney) trained by "asr train-lm" on the text the README's
// model card lists, in gzip-compressed ARPA format.
//
//go:embed default-lm.arpa.gz
var defaultNGram []byte

// DefaultNGramSize is the size in bytes of the embedded word LM file.
var DefaultNGramSize = len(defaultNGram)

// DefaultNGramID names the embedded word LM by name and content.
//
// Its digest is written here, not computed at start-up: hashing the
// embedded file would read all 10 MB of it into every process's memory
// (TestEmbeddedIDs checks that it matches the file).
var DefaultNGramID = "attend-asr-lm-default@sha256:7275b77bc0b4"

var parsedNGram = sync.OnceValues(func() (*ngram.Model, error) {
	return ngram.Read(bytes.NewReader(defaultNGram), nil)
})

// DefaultNGram returns the embedded default word language model, parsed
// once and shared: models are read-only at inference.
func DefaultNGram() (*ngram.Model, error) { return parsedNGram() }
