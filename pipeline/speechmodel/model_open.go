package speechmodel

import (
	"context"
	"os"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/whisper"
)

// Decoding holds the decoding options of every model family; Open gives
// a model those of its family and ignores the others.
type Decoding struct {
	// Search and LM configure a LAS model's beam search and the
	// language model fused in it (LanguageModel.Apply loads it for the
	// model's vocabulary).
	Search SearchOptions
	LM     LanguageModel
	// Whisper configures a Whisper model's decoding (openai/whisper's
	// transcribe() arguments).
	Whisper WhisperOptions
	// Locate says where a Whisper model given by name (tiny.en, base, …)
	// is cached and whether it may be downloaded; nil means the user
	// cache, downloads allowed.
	Locate *whisper.LocateOptions
}

// DefaultDecoding returns what "asr transcribe" decodes with unless told
// otherwise: DefaultSearchOptions and DefaultLanguageModel.
func DefaultDecoding() Decoding {
	return Decoding{Search: DefaultSearchOptions(), LM: DefaultLanguageModel()}
}

// Open opens the speech model at path ("": the embedded default model)
// for transcription, with its family's options of d (nil:
// DefaultDecoding). It is where a model file's family is chosen by its
// content, and so where a new family joins: a Whisper checkpoint
// (whisper.cpp's ggml .bin, a safetensors file with Whisper's tensors,
// IsWhisperFile) or the name of a published one (whisper.Published:
// tiny.en, base, …) opens as Whisper; any other file is a LAS model (a
// safetensors file of "asr train", see OpenModel). Commands that take
// -model call it.
func Open(path string, d *Decoding) (Model, error) {
	if d == nil {
		def := DefaultDecoding()
		d = &def
	}
	if path != "" {
		_, statErr := os.Stat(path)
		_, published := whisper.Published[path]
		if statErr != nil && published {
			return OpenWhisper(context.Background(), path, &d.Whisper, d.Locate)
		}
		if statErr == nil {
			isWhisper, err := IsWhisperFile(path)
			if err != nil {
				return nil, err
			}
			if isWhisper {
				return OpenWhisper(context.Background(), path, &d.Whisper, d.Locate)
			}
		}
	}
	m, err := OpenModel(path)
	if err != nil {
		return nil, err
	}
	if path != "" { // a model of its own, for decoding only (the shared default comes packed)
		m.Speller.PackForInference()
	}
	search := d.Search
	if err := d.LM.Apply(m, &search); err != nil {
		return nil, err
	}
	return NewLAS(m, &search), nil
}

// ModelID names a model in batch records: asr.DefaultID for the embedded
// default model (the empty path), else the path as given.
func ModelID(path string) string {
	if path == "" {
		return asr.DefaultID
	}
	return path
}
