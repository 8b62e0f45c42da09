package speech

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Options configures New. A nil *Options, like the zero value, means the
// embedded default model with the default search and language model: what
// "asr transcribe" does without flags.
type Options struct {
	// Model is an ASR model file ("": the embedded default model).
	Model string
	// Search tunes beam search; nil means DefaultSearchOptions. Its
	// language model fields are set from LM.
	Search *speechmodel.SearchOptions
	// LM is the language model fused in the search; nil means
	// DefaultLanguageModel (the embedded word LM), and
	// &LanguageModel{Path: NoLM} none.
	LM *speechmodel.LanguageModel
	// Threads is how many chunks of one recording are decoded at once (0
	// or 1: one after the other; see TranscribeOptions.Threads).
	Threads int
	// NoVAD turns voice activity detection off (see TranscribeOptions).
	NoVAD bool
}

// Recognizer is the entry point for Go programs that embed attend's
// speech recognition: a model with its search, language model and
// options, ready to transcribe. It is safe for concurrent use: each call
// decodes with its own Transcriber over the shared, read-only model.
type Recognizer struct {
	model speechmodel.Model
	opts  TranscribeOptions
}

// New opens the model of opts (nil: the defaults) with its search and
// language model (Open).
func New(opts *Options) (*Recognizer, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	d := speechmodel.DefaultDecoding()
	if o.Search != nil {
		d.Search = *o.Search
	}
	if o.LM != nil {
		d.LM = *o.LM
	}
	model, err := speechmodel.Open(o.Model, &d)
	if err != nil {
		return nil, fmt.Errorf("speech: %w", err)
	}
	return &Recognizer{model: model, opts: TranscribeOptions{Threads: o.Threads, NoVAD: o.NoVAD}}, nil
}

// Model returns the recognizer's model.
func (r *Recognizer) Model() speechmodel.Model { return r.model }

// Transcribe transcribes an audio file's bytes (WAV, FLAC, MP3 or Ogg
// Vorbis, any rate and channel count, sniffed from the bytes). An
// io.ReadSeeker (*os.File, *bytes.Reader) is decoded as it is read, so
// memory stays bounded on long recordings; any other reader (an HTTP
// request body) is read into memory first, since decoders need to seek.
// It stops between chunks when ctx is done, with an error wrapping
// context.Cause(ctx).
func (r *Recognizer) Transcribe(ctx context.Context, src io.Reader) (*Transcript, error) {
	return r.Segments(ctx, src, nil)
}

// TranscribeFile transcribes the audio file at path, which names it in
// the transcript and in errors.
func (r *Recognizer) TranscribeFile(ctx context.Context, path string) (*Transcript, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("speech: %w", err) // *PathError names the file
	}
	defer f.Close()
	return r.transcribe(ctx, path, f, nil)
}

// Segments is Transcribe that hands each chunk to yield as soon as it
// and every chunk before it are decoded, in order, with final times
// (from the start of the recording): what a service needs to stream text
// while a long recording is still being decoded. Chunks without speech
// (Chunk.NoSpeech: empty text, no words) are handed over too. An error
// from yield stops the transcription between chunks and is returned,
// wrapped. A nil yield hands nothing over.
func (r *Recognizer) Segments(ctx context.Context, src io.Reader, yield func(Chunk) error) (*Transcript, error) {
	rs, ok := src.(io.ReadSeeker)
	if !ok {
		data, err := io.ReadAll(src)
		if err != nil {
			return nil, fmt.Errorf("speech: reading audio: %w", err)
		}
		rs = bytes.NewReader(data)
	}
	return r.transcribe(ctx, "", rs, yield)
}

// transcribe decodes rs, named path ("" in errors: "speech"), reporting
// chunks to yield (nil: none).
func (r *Recognizer) transcribe(ctx context.Context, path string, rs io.ReadSeeker, yield func(Chunk) error) (*Transcript, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	opts := r.opts
	if yield != nil {
		opts.OnChunk = func(c Chunk) {
			if ctx.Err() != nil {
				return
			}
			if err := yield(c); err != nil {
				cancel(err)
			}
		}
	}
	t, err := NewTranscriber(r.model, &opts)
	if err != nil {
		return nil, fmt.Errorf("speech: %w", err)
	}
	stream, _, err := audio.Open(rs)
	if err != nil {
		name := path
		if name == "" {
			name = "speech"
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return t.StreamContext(ctx, path, stream)
}
