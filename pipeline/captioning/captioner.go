package captioning

import (
	"context"
	"errors"
	"fmt"
	"image"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/vision"
)

// CaptionerOptions configures NewCaptioner. The zero value of a field
// means the default noted.
type CaptionerOptions struct {
	// Model is the caption model file ("": the embedded default).
	Model string
	// Encoder is the image encoder's TFLite file, or a known encoder's
	// name ("mobilenet-edgetpu"; vision.FindEncoder). "" means
	// $ATTEND_ENCODER, then the user cache, then a checked download of the
	// encoder the model's features came from (vision.LocateEncoder). It is
	// located and loaded at the first image that needs it, and must be the
	// file the model's features note names (else ErrWrongEncoder).
	Encoder string
	// Progress receives the lines of an encoder download (nil: none).
	Progress io.Writer
	// Cache is an optional feature cache: an image whose file name is
	// one of its IDs is captioned from the cached features, without the
	// encoder (how a dataset's images are captioned quickly).
	Cache string
	// Beam is the beam width (0 means DefaultBeam: 30 with a memory,
	// 3 without; 1 is greedy search).
	Beam int
	// Memory reranks the beam's candidates by consensus with the nearest
	// training images' captions (Memory): "" means the embedded default
	// memory for the embedded default model and none for other models,
	// NoMemory none, anything else a memory file (caption memory).
	Memory string
	// Neighbours and RerankWeight tune the reranking (Reranking's
	// Neighbours and Weight; 0 means the defaults).
	Neighbours   int
	RerankWeight float64
	// Search tunes the search (length, length penalty, <unk>, repeated
	// n-grams); nil means DefaultSearchOptions.
	Search *caption.SearchOptions
	// Fit is how a photo becomes the encoder's square input. The zero
	// value, vision.Squash, matches the training images (Flickr8k squashed
	// to 224×224) and keeps the whole photo under the attention grid.
	Fit vision.Fit
	// MaxPixels is the largest image, width×height, that is decoded (0:
	// vision.DefaultMaxPixels); larger ones are refused from their
	// header, before any work.
	MaxPixels int64
}

// Captioner describes images: encoder, then decoder with beam search.
// It is safe for concurrent use; each call takes its own workspace.
type Captioner struct {
	Model *caption.Model
	// encoderSHA is the SHA-256 of the encoder the model's features came
	// from ("" when its file does not say).
	encoderSHA string
	grid       captiondata.GridChoice
	o          CaptionerOptions
	cache      *captiondata.Cache

	rerank *Reranking // nil: the search's best is the caption

	encOnce sync.Once
	encErr  error
	enc     *vision.Encoder
	pre     *vision.Preprocessor
	encMu   sync.Mutex
	ctx     context.Context
}

// NewCaptioner loads the caption model (and the cache, if any); the
// encoder waits for the first image that needs it, located with ctx.
func NewCaptioner(ctx context.Context, o CaptionerOptions) (*Captioner, error) {
	rerank, err := OpenReranking(&o)
	if err != nil {
		return nil, err
	}
	if o.Beam == 0 {
		o.Beam = DefaultBeam(rerank != nil)
	}
	if o.Beam < 1 {
		return nil, fmt.Errorf("captioning: beam width %d, want at least 1", o.Beam)
	}
	m, sha, err := openModel(o.Model)
	if err != nil {
		return nil, err
	}
	if o.Model != "" { // a model of its own (the shared default comes packed)
		m.PackForInference()
	}
	if rerank != nil {
		if err := rerank.Memory.CheckModel(m, sha); err != nil {
			return nil, err
		}
		rerank.Memory.Warm()
	}
	c := &Captioner{Model: m, encoderSHA: sha, o: o, ctx: ctx, rerank: rerank}
	// The grid is chosen by its regions: its depth depends on the encoder
	// (14×14 is 576 deep in MobileNetV2, 768 in MobileNet-EdgeTPU) and is
	// checked when the encoder is loaded.
	found := false
	for _, g := range captiondata.GridChoices {
		if g.H*g.W == m.Config.Regions && (g.D == m.Config.FeatureDim || !found) {
			c.grid, found = g, true
		}
	}
	if !found {
		return nil, fmt.Errorf("captioning: the model reads %d regions of %d features, which no encoder grid gives", m.Config.Regions, m.Config.FeatureDim)
	}
	if o.Cache != "" {
		if c.cache, err = captiondata.OpenCache(o.Cache); err != nil {
			return nil, err
		}
		if err := checkGrid(m, c.cache); err != nil {
			c.cache.Close()
			return nil, err
		}
		if got := c.cache.Spec().Encoder; sha != "" && got != sha {
			c.cache.Close()
			return nil, wrongEncoder("the feature cache "+o.Cache+" holds features of", got, sha)
		}
	}
	return c, nil
}

// Beam returns the beam width of captions whose Input names none.
func (c *Captioner) Beam() int { return c.o.Beam }

// NoMemory as CaptionerOptions.Memory turns reranking off.
const NoMemory = "none"

// DefaultBeam is the beam width when none is given: 30 when a memory
// reranks the candidates (the consensus needs candidates to choose
// from), 3 without (wider beams caption worse by themselves).
func DefaultBeam(reranked bool) int {
	if reranked {
		return 30
	}
	return 3
}

// OpenReranking returns the reranking the options' Model, Memory,
// Neighbours and RerankWeight ask for, or nil for none.
func OpenReranking(o *CaptionerOptions) (*Reranking, error) {
	var (
		mem *Memory
		err error
	)
	switch o.Memory {
	case NoMemory:
		return nil, nil
	case "":
		if o.Model != "" {
			return nil, nil
		}
		mem, err = DefaultMemory()
	default:
		mem, err = ReadMemory(o.Memory)
	}
	if err != nil {
		return nil, err
	}
	return &Reranking{Memory: mem, Neighbours: o.Neighbours, Weight: o.RerankWeight}, nil
}

// ErrNoEncoder means the image encoder could not be found or
// downloaded; EncoderHelp says how to provide it.
var ErrNoEncoder = errors.New("captioning: no image encoder")

// EncoderError returns why the encoder could not be loaded, or nil (also
// when no image needed it). Call it after the captioning is done, not
// while other goroutines caption.
func (c *Captioner) EncoderError() error { return c.encErr }

// EncoderHelp says how to provide the encoder the embedded default model
// needs: EncoderHelpFor(DefaultEncoder()).
func EncoderHelp() string { return EncoderHelpFor(DefaultEncoder()) }

// EncoderHelpFor says how to provide the image encoder k: the flag, the
// environment variable, the cache path and the file to download by hand
// with its SHA-256.
func EncoderHelpFor(k *vision.KnownEncoder) string {
	cache := "the user cache directory's attend/" + k.File
	if base, err := os.UserCacheDir(); err == nil {
		cache = filepath.Join(base, "attend", k.File)
	}
	return fmt.Sprintf(`captioning needs one file that is not shipped: the image encoder, %s
(%s, %.1f MB, Apache-2.0). Give it with -encoder FILE or $%s=FILE, or
put it at %s. It is downloaded there on first use; to fetch it by hand:
  curl -L -o %s \
    %s
and check that its SHA-256 is %s (sha256sum).
`, k.Title, k.File, float64(k.Size)/1e6, vision.EncoderEnv, cache, cache, k.URL, k.SHA256)
}

// NeededEncoder returns the known encoder whose features the model was
// trained on: the one its file names, MobileNetV2 when it names none, nil
// when it names one this tool does not know.
func (c *Captioner) NeededEncoder() *vision.KnownEncoder {
	if c.encoderSHA == "" {
		return vision.MobileNetV2
	}
	return vision.FindEncoder(c.encoderSHA)
}

// Close releases the feature cache.
func (c *Captioner) Close() error {
	if c.cache != nil {
		return c.cache.Close()
	}
	return nil
}

// loadEncoder locates and loads the encoder once.
func (c *Captioner) loadEncoder() error {
	c.encOnce.Do(func() {
		path, err := captiondata.LocateEncoder(c.ctx, c.o.Encoder, vision.FindEncoder(c.encoderSHA), c.o.Progress)
		if err != nil {
			c.encErr = fmt.Errorf("%w: %w", ErrNoEncoder, err)
			return
		}
		if c.encErr = checkEncoderFile(path, c.encoderSHA); c.encErr != nil {
			return
		}
		if c.enc, err = vision.LoadEncoder(path, &vision.EncoderOptions{Grid: c.grid.Grid}); err != nil {
			c.encErr = fmt.Errorf("captioning: %w", err)
			return
		}
		if h, w, d := c.enc.GridShape(); h*w != c.Model.Config.Regions || d != c.Model.Config.FeatureDim {
			c.encErr = fmt.Errorf("%w: the model reads %d regions of %d features, the encoder %s gives %d×%d×%d at %v",
				ErrWrongEncoder, c.Model.Config.Regions, c.Model.Config.FeatureDim, path, h, w, d, c.grid.Grid)
			return
		}
		if c.pre, err = c.enc.NewPreprocessor(&vision.PreprocessOptions{Fit: c.o.Fit}); err != nil {
			c.encErr = fmt.Errorf("captioning: %w", err)
		}
	})
	return c.encErr
}

// LoadImage decodes the image at path ("-": stdin), refusing images over
// CaptionerOptions.MaxPixels.
func (c *Captioner) LoadImage(path string, stdin io.Reader) (image.Image, string, error) {
	return LoadImageLimit(path, stdin, c.o.MaxPixels)
}
