package captioning

import (
	"context"
	"image"
	"io"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/batch"
)

// Captioning many images with package batch (caption DIR): the decoder,
// the feature cache and the encoder's weights are loaded once and shared
// read-only by every worker. A Captioner serializes its encoder behind a
// lock, since the encoder's activation buffers and the Preprocessor's
// resize buffers are not safe for concurrent use; a batch worker owns
// both instead (a Clone of the encoder, a Preprocessor of its own) and
// its feature buffer, so the workers encode at the same time. Describe
// is safe for concurrent use as it is (each search takes its own
// decoder workspace).

// ModelID names a caption model in batch records: caption.DefaultID for
// the embedded default decoder (the empty path), else the path as given.
func ModelID(path string) string {
	if path == "" {
		return caption.DefaultID
	}
	return path
}

// BatchRecord is the structured result of one image of a batch: the
// "result" of a JSONL record and the json file of an image. It is the
// caption without Details (no attention, gates or alternatives: Result
// has them, and a Figures draws them) and what the batch adds.
type BatchRecord struct {
	Caption
	// Cached reports that the features came from the feature cache.
	Cached bool `json:"cached,omitempty"`
	// Overlay is the path of the image's attention figure, when the
	// batch draws them (BatchOptions.Figures).
	Overlay string `json:"overlay,omitempty"`
	// OverlayError says why the figure could not be drawn or written; the
	// caption stands all the same.
	OverlayError string `json:"overlay_error,omitempty"`
}

// BatchResult is a caption as a batch result: the caption (the record's
// "text" and the txt file of an image) and its BatchRecord, with the
// path of its figure (overlay, "" for none). It has no timed text, so
// srt and vtt files fail with batch.ErrNoCues.
func BatchResult(r *Result, overlay string) batch.Result {
	return batch.Result{Text: r.Caption, Value: BatchRecord{Caption: r.Brief(), Cached: r.Cached, Overlay: overlay}}
}

// Figures draws a figure of each image of a batch: package overlay's Dir
// through the caption command (this package cannot import overlay,
// which imports it). Its methods are called by every worker at once.
type Figures interface {
	// Path returns where the figure of in goes, or why it cannot be
	// written there; it is asked before the image is captioned, so that
	// a refused input costs nothing.
	Path(in batch.Input) (string, error)
	// Write draws r over img, the decoded image of in, and returns the
	// path of the figure.
	Write(in batch.Input, img image.Image, r *Result) (string, error)
}

// BatchOptions configures BatchFactory and Processor. A nil
// *BatchOptions, or the zero value, means defaults.
type BatchOptions struct {
	// Figures, when set, draws each captioned image; the path of its
	// figure goes into its record (BatchRecord.Overlay); a figure that
	// cannot be drawn or written leaves the caption standing, its reason
	// in BatchRecord.OverlayError. Default: none.
	Figures Figures
	// FiguresRequired makes a figure that cannot be drawn or written fail
	// its input instead ("caption overlay -dir"); one whose path is
	// refused fails before the image is captioned.
	FiguresRequired bool
	// Stdin is the image of the input "-".
	Stdin io.Reader
}

// BatchFactory returns the batch.Factory of a captioning batch over c:
// each worker is a Processor of its own. Without a cache the encoder is
// loaded (and located, maybe downloaded) when the first worker starts,
// so a missing encoder fails the batch before any input; with one, at
// the first image the cache lacks.
func BatchFactory(c *Captioner, opts *BatchOptions) batch.Factory {
	return func(int) (batch.Processor, error) {
		w := c.newBatchWorker(opts)
		if c.cache == nil {
			if err := w.loadEncoder(); err != nil {
				return nil, err
			}
		}
		return w.process, nil
	}
}

// Processor returns a batch worker over c that turns an input into the
// BatchResult of its caption through CaptionInput's path, with an
// encoder of its own (loaded at the first image the cache lacks) and its
// figure drawn by opts.Figures. It is for one goroutine; BatchFactory
// makes one per worker.
func (c *Captioner) Processor(opts *BatchOptions) batch.Processor {
	return c.newBatchWorker(opts).process
}

func (c *Captioner) newBatchWorker(opts *BatchOptions) *batchWorker {
	w := &batchWorker{worker: worker{c: c, own: true}}
	if opts != nil {
		w.o = *opts
	}
	return w
}

// batchWorker is the state of one worker of a batch.
type batchWorker struct {
	worker
	o BatchOptions
}

// process captions one input and draws its figure.
func (w *batchWorker) process(ctx context.Context, in batch.Input) (batch.Result, error) {
	if in.Err != nil {
		return batch.Result{}, in.Err
	}
	if err := ctx.Err(); err != nil {
		return batch.Result{}, err // abandoned before it started
	}
	var figErr error
	figures := w.o.Figures != nil
	if figures {
		if _, figErr = w.o.Figures.Path(in); figErr != nil {
			if w.o.FiguresRequired {
				return batch.Result{}, figErr // refused before any work
			}
			figures = false
		}
	}
	r, err := w.caption(context.Background(), &Input{Path: in.Path, Stdin: w.o.Stdin, KeepImage: figures})
	if err != nil {
		return batch.Result{}, err
	}
	var overlay string
	if figures {
		overlay, figErr = w.o.Figures.Write(in, r.Image, r)
	}
	if figErr != nil && w.o.FiguresRequired {
		return batch.Result{}, figErr
	}
	res := BatchResult(r, overlay)
	if figErr != nil {
		rec := res.Value.(BatchRecord)
		rec.OverlayError = figErr.Error()
		res.Value = rec
	}
	return res, nil
}
