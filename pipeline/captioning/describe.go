package captioning

import (
	"context"
	"fmt"
	"image"
	"io"
	"path/filepath"

	"github.com/attend-go/attend/internal/input"
	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/vision"
)

// Input is one image to describe (Captioner.CaptionInput).
type Input struct {
	// Path is the image file ("-": Stdin). The feature cache is
	// consulted by its file name; errors name it.
	Path  string
	Stdin io.Reader
	// Image, when set, is the image already decoded: Path then only
	// names it, and the cache is not consulted.
	Image image.Image
	// Beam is the beam width (0: CaptionerOptions.Beam).
	Beam int
	// KeepImage decodes the image even when the cache holds its features,
	// so that Result.Image is set (to draw its figure).
	KeepImage bool
}

// CaptionInput describes one image: the one captioning path of the
// package, behind Caption, CaptionImage, the batches and package
// overlay's figures. The image is decoded once, and only when needed: an
// image the feature cache holds is described from its cached features
// (decoded all the same with KeepImage); any other is decoded and
// encoded. ctx is checked between the stages. Errors name in.Path.
func (c *Captioner) CaptionInput(ctx context.Context, in *Input) (*Result, error) {
	w := worker{c: c}
	return w.caption(ctx, in)
}

// Caption describes the image file at path ("-": stdin).
func (c *Captioner) Caption(path string, stdin io.Reader) (*Result, error) {
	return c.CaptionInput(context.Background(), &Input{Path: path, Stdin: stdin})
}

// CaptionImage describes a decoded image.
func (c *Captioner) CaptionImage(img image.Image) (*Result, error) {
	return c.CaptionInput(context.Background(), &Input{Image: img})
}

// Describe captions one image's features (L×D) with CaptionerOptions.Beam.
// Without the encoder's class probabilities the result has no Labels.
func (c *Captioner) Describe(features []float32) (*Result, error) {
	return c.describe(features, nil, c.o.Beam)
}

// describe captions one image's features (L×D) with a beam of width beam;
// probs are the encoder's class probabilities of the image (nil: not
// known, as for cached features).
func (c *Captioner) describe(features, probs []float32, beam int) (*Result, error) {
	if beam < 1 {
		return nil, fmt.Errorf("captioning: beam width %d, want at least 1", beam)
	}
	var ws caption.Workspace
	hyps, err := c.Model.Beam(&ws, features, beam, c.o.Search)
	if err != nil {
		return nil, fmt.Errorf("captioning: %w", err)
	}
	var (
		consensus   []float64 // by hypothesis, when reranked
		familiarity *float64
	)
	if c.rerank != nil {
		order, near, err := c.rerank.order(features, hyps)
		if err != nil {
			return nil, err
		}
		familiarity = &near
		ranked := make([]caption.Hypothesis, len(hyps))
		consensus = make([]float64, len(hyps))
		for i, o := range order {
			ranked[i], consensus[i] = hyps[o.Index], o.Consensus
		}
		hyps = ranked
	}
	best := hyps[0]
	r := &Result{
		Caption: joinWords(best.Words), Words: best.Words, Tokens: best.Tokens,
		GridH: c.grid.H, GridW: c.grid.W, Fit: c.o.Fit,
		Attention: best.Attention, Beta: best.Beta, Sentinel: best.Sentinel,
		LogProb: best.LogProb, Score: best.Score, Finished: best.Finished,
		TokenLogProbs: best.TokenLogProbs, Labels: topLabels(probs),
	}
	r.Confidence = confidence(best.TokenLogProbs)
	r.Familiarity = familiarity
	for i, h := range hyps {
		a := Alternative{Caption: joinWords(h.Words), LogProb: h.LogProb, Score: h.Score, Finished: h.Finished}
		if consensus != nil {
			a.Consensus = &consensus[i]
		}
		r.Alternatives = append(r.Alternatives, a)
	}
	return r, nil
}

// worker is what describing an image needs besides the Captioner: an
// encoder and a feature buffer. The zero worker (of CaptionInput) shares
// the Captioner's encoder behind its lock; a batch worker owns a clone
// (sharing the weights) and a Preprocessor, so the workers encode at the
// same time, and reuses its buffer.
type worker struct {
	c *Captioner
	// enc and pre are the worker's own encoder and preprocessor, made at
	// the first image the cache lacks (batch workers only).
	own      bool
	enc      *vision.Encoder
	pre      *vision.Preprocessor
	features []float32 // the image being captioned (L×D), reused
	probs    []float32 // its class probabilities (NumClasses), reused
	contrast float64   // its contrast (vision.Tensor.Contrast)
}

// caption is CaptionInput with w's encoder.
func (w *worker) caption(ctx context.Context, in *Input) (*Result, error) {
	c := w.c
	beam := in.Beam
	if beam == 0 {
		beam = c.o.Beam
	}
	named := func(err error) error {
		if in.Path == "" {
			return err
		}
		return fmt.Errorf("%s: %w", input.DisplayName(in.Path), err)
	}
	img := in.Image
	record, cached := 0, false
	if img == nil {
		record, cached = c.cached(in.Path)
	}
	if img == nil && (!cached || in.KeepImage) {
		var err error
		if img, _, err = c.LoadImage(in.Path, in.Stdin); err != nil {
			return nil, err // names the file
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var (
		err   error
		probs []float32 // none for cached features
	)
	if cached {
		w.features, err = c.cache.Features(record, w.features)
	} else {
		err = w.encode(img)
		probs = w.probs
	}
	if err != nil {
		return nil, named(err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r, err := c.describe(w.features, probs, beam)
	if err != nil {
		return nil, named(err)
	}
	r.Path, r.Cached, r.Image = in.Path, cached, img
	if !cached {
		contrast := w.contrast
		r.Contrast = &contrast
	}
	return r, nil
}

// cached returns the record of the feature cache that holds the features
// of the image at path, found by its file name.
func (c *Captioner) cached(path string) (int, bool) {
	if c.cache == nil || path == input.Stdin || path == "" {
		return 0, false
	}
	i, ok := c.cache.Lookup(filepath.Base(path))
	return i, ok && c.cache.Complete(i)
}

// encode runs the encoder on a decoded image, squashed (or cropped,
// CaptionerOptions.Fit) to the input size, into w.features, the feature
// grid the model reads (L×D), and w.probs, the classifier's class
// probabilities: one pass of the network gives both. w.contrast is the
// contrast of the encoder's input.
func (w *worker) encode(img image.Image) error {
	if err := w.loadEncoder(); err != nil {
		return err
	}
	enc, pre := w.enc, w.pre
	if !w.own {
		enc, pre = w.c.enc, w.c.pre
		w.c.encMu.Lock() // the shared encoder owns its activation buffers
		defer w.c.encMu.Unlock()
	}
	t, err := pre.Tensor(img)
	if err != nil {
		return fmt.Errorf("captioning: %w", err)
	}
	w.contrast = t.Contrast(pre.Normalization())
	if w.features, w.probs, err = enc.Encode(t, w.features, w.probs); err != nil {
		return fmt.Errorf("captioning: %w", err)
	}
	return nil
}

// loadEncoder loads the Captioner's encoder if no one has and, for a
// worker of its own, gives it a clone and a preprocessor.
func (w *worker) loadEncoder() error {
	if err := w.c.loadEncoder(); err != nil || !w.own || w.enc != nil {
		return err
	}
	pre, err := w.c.enc.NewPreprocessor(&vision.PreprocessOptions{Fit: w.c.o.Fit})
	if err != nil {
		return fmt.Errorf("captioning: %w", err)
	}
	w.enc, w.pre = w.c.enc.Clone(), pre
	return nil
}
