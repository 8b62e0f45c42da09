package speech

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/mjibson/go-dsp/fft"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/batch"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Transcribing many files with package batch (asr transcribe DIR): the
// model is loaded once and shared read-only by every worker; each worker
// owns a Transcriber (front end and decoder workspace).

// BatchFactory returns the batch.Factory of a transcription batch: each
// worker gets its own Transcriber over the shared model with opts, and
// turns an input into BatchResult of its transcript.
//
// A worker stops reading its recording when its context is cancelled
// (batch.Options.Abort), so abandoning a long recording costs at most
// the chunk being decoded.
func BatchFactory(model speechmodel.Model, opts *TranscribeOptions) batch.Factory {
	return func(int) (batch.Processor, error) {
		tr, err := NewTranscriber(model, opts)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, in batch.Input) (batch.Result, error) {
			t, err := tr.FileContext(ctx, in.Path)
			if err != nil {
				return batch.Result{}, err
			}
			return BatchResult(t), nil
		}, nil
	}
}

// FileContext is File for batches and evaluations: no standard input,
// and a stream that fails once ctx is cancelled.
func (t *Transcriber) FileContext(ctx context.Context, path string) (*Transcript, error) {
	return withAudioFile(path, nil, func(stream audio.Stream) (*Transcript, error) {
		return t.Stream(path, contextStream{ctx, stream})
	})
}

// contextStream is an audio.Stream that fails with the context's error
// once it is cancelled.
type contextStream struct {
	ctx context.Context
	audio.Stream
}

// Truncated and NonFinite pass on the file's, which StreamContext
// records in the transcript.
func (s contextStream) Truncated() bool {
	t, ok := s.Stream.(interface{ Truncated() bool })
	return ok && t.Truncated()
}

func (s contextStream) NonFinite() int64 {
	if c, ok := s.Stream.(interface{ NonFinite() int64 }); ok {
		return c.NonFinite()
	}
	return 0
}

func (s contextStream) Read(dst []float32) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	return s.Stream.Read(dst)
}

// BatchResult is a transcript as a batch result: the text (the record's
// "text" and the txt sidecar), the transcript itself (the JSONL record's
// "result" and the json sidecar: chunks and word times) and the
// subtitle cues of Cues (srt and vtt sidecars; none, not an error, for a
// recording in which nothing was recognized).
func BatchResult(t *Transcript) batch.Result {
	cues := Cues(t)
	timed := make([]batch.Cue, len(cues)) // never nil: nil means "no timing"
	for i, c := range cues {
		timed[i] = batch.Cue{Start: milliseconds(c.Start), End: milliseconds(c.End), Text: c.Text}
	}
	return batch.Result{Text: t.Text, Value: t, Cues: timed, Truncated: t.Truncated, Warnings: t.Warnings()}
}

// Warnings are what a command says of a transcript besides its text: a
// file cut short, samples that were not numbers.
func (t *Transcript) Warnings() []string {
	var w []string
	if t.Truncated {
		w = append(w, fmt.Sprintf("the file is cut short: transcribed the %.1f s it holds", t.Duration))
	}
	if t.NonFinite > 0 {
		w = append(w, fmt.Sprintf("%d samples are NaN or infinite (read as 0 and ±1): the file is probably broken", t.NonFinite))
	}
	return w
}

// milliseconds rounds seconds to the millisecond, as WriteTranscript's
// subtitles do, so that a sidecar and standard output agree.
func milliseconds(sec float64) time.Duration {
	return time.Duration(math.Round(sec*1000)) * time.Millisecond
}

// SetFFTWorkers tunes the front end's FFT (go-dsp's, see package audio)
// for jobs transcriptions running at once. go-dsp spreads each transform
// over GOMAXPROCS goroutines, which pays off for one transcription at a
// time; when jobs > 1 the workers keep the cores busy already, and each
// transform runs on one goroutine instead. The setting is process-wide
// and go-dsp reads it unsynchronized: call this before transcribing.
func SetFFTWorkers(jobs int) {
	if jobs > 1 {
		fft.SetWorkerPoolSize(1)
	} else {
		fft.SetWorkerPoolSize(0) // go-dsp's default: GOMAXPROCS
	}
}
