package captioning

import (
	"context"
	"fmt"
	"image"
	"path/filepath"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/batch"
	"github.com/attend-go/attend/vision"
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
// "result" of a JSONL record and the json file of an image. It leaves out
// the attention weights, the gates and the beam's alternatives (Result
// has them, and a Figures draws them).
type BatchRecord struct {
	Caption  string   `json:"caption"`
	Words    []string `json:"words"`
	LogProb  float64  `json:"log_prob"`
	Score    float64  `json:"score"`
	Finished bool     `json:"finished"`
	// Cached reports that the features came from the feature cache.
	Cached bool `json:"cached,omitempty"`
	// Overlay is the path of the image's attention figure, when the
	// batch draws them (BatchOptions.Figures).
	Overlay string `json:"overlay,omitempty"`
}

// BatchResult is a caption as a batch result: the caption (the record's
// "text" and the txt file of an image) and its BatchRecord, with the
// path of its figure (overlay, "" for none). It has no timed text, so
// srt and vtt files fail with batch.ErrNoCues.
func BatchResult(r *Result, overlay string) batch.Result {
	words := r.Words
	if words == nil {
		words = []string{} // a caption of no words still lists them
	}
	return batch.Result{Text: r.Caption, Value: BatchRecord{
		Caption: r.Caption, Words: words, LogProb: r.LogProb, Score: r.Score,
		Finished: r.Finished, Cached: r.Cached, Overlay: overlay,
	}}
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

// BatchOptions configures BatchFactory. A nil *BatchOptions, or the zero
// value, means defaults.
type BatchOptions struct {
	// Figures, when set, draws each captioned image; the path of its
	// figure goes into its record (BatchRecord.Overlay), and an image
	// whose figure fails is a failed input. Default: none.
	Figures Figures
}

// BatchFactory returns the batch.Factory of a captioning batch over c:
// each worker turns an input into the BatchResult of its caption. An
// image in c's feature cache is captioned from its cached features (and
// decoded only to draw its figure); any other is decoded and encoded by
// the worker's own encoder. Without a cache the encoder is loaded (and
// located, maybe downloaded) when the first worker starts, so a missing
// encoder fails the batch before any input; with one, at the first image
// the cache lacks.
func BatchFactory(c *Captioner, opts *BatchOptions) batch.Factory {
	var o BatchOptions
	if opts != nil {
		o = *opts
	}
	return func(int) (batch.Processor, error) {
		w := &batchWorker{c: c, figures: o.Figures}
		if c.cache == nil {
			if err := w.loadEncoder(); err != nil {
				return nil, err
			}
		}
		return w.process, nil
	}
}

// batchWorker is the state of one worker of a batch.
type batchWorker struct {
	c       *Captioner
	figures Figures
	// enc and pre are the worker's own encoder (sharing c's weights) and
	// preprocessor, made at the first image the cache lacks.
	enc      *vision.Encoder
	pre      *vision.Preprocessor
	features []float32 // the image being captioned (L×D), reused
}

// process captions one input and draws its figure.
func (w *batchWorker) process(ctx context.Context, in batch.Input) (batch.Result, error) {
	if err := ctx.Err(); err != nil {
		return batch.Result{}, err // abandoned before it started
	}
	if w.figures != nil {
		if _, err := w.figures.Path(in); err != nil {
			return batch.Result{}, err
		}
	}
	img, r, err := w.caption(in.Path)
	if err != nil {
		return batch.Result{}, err
	}
	var overlay string
	if w.figures != nil {
		if overlay, err = w.figures.Write(in, img, r); err != nil {
			return batch.Result{}, err
		}
	}
	return BatchResult(r, overlay), nil
}

// caption describes the image at path, and returns it decoded when it
// was (always with figures; without, only when the cache lacks it).
// Errors name the path.
func (w *batchWorker) caption(path string) (image.Image, *Result, error) {
	record, cached := w.c.cached(path)
	var img image.Image
	if w.figures != nil || !cached {
		var err error
		if img, _, err = LoadImage(path, nil); err != nil {
			return nil, nil, err // names the file
		}
	}
	var err error
	if cached {
		w.features, err = w.c.cache.Features(record, w.features)
	} else {
		w.features, err = w.encode(img)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	r, err := w.c.Describe(w.features)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	r.Path, r.Cached = path, cached
	return img, r, nil
}

// cached returns the record of the feature cache that holds the features
// of the image at path, found by its file name as Features finds it.
func (c *Captioner) cached(path string) (int, bool) {
	if c.cache == nil {
		return 0, false
	}
	i, ok := c.cache.Lookup(filepath.Base(path))
	return i, ok && c.cache.Complete(i)
}

// encode runs the worker's encoder on a decoded image.
func (w *batchWorker) encode(img image.Image) ([]float32, error) {
	if err := w.loadEncoder(); err != nil {
		return nil, err
	}
	t, err := w.pre.Tensor(img)
	if err != nil {
		return nil, fmt.Errorf("captioning: %w", err)
	}
	f, err := w.enc.Features(w.features, t)
	if err != nil {
		return nil, fmt.Errorf("captioning: %w", err)
	}
	return f, nil
}

// loadEncoder gives the worker its encoder and preprocessor, loading c's
// encoder first if no worker has.
func (w *batchWorker) loadEncoder() error {
	if w.enc != nil {
		return nil
	}
	if err := w.c.loadEncoder(); err != nil {
		return err
	}
	pre, err := w.c.enc.NewPreprocessor(&vision.PreprocessOptions{Fit: w.c.o.Fit})
	if err != nil {
		return fmt.Errorf("captioning: %w", err)
	}
	w.enc, w.pre = w.c.enc.Clone(), pre
	return nil
}
