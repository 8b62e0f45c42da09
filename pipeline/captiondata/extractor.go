package captiondata

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/attend-go/attend/vision"
)

// ExtractorOptions configures LoadExtractor. A nil *ExtractorOptions, or
// the zero value, means defaults; each field documents its own.
type ExtractorOptions struct {
	// Grid is the feature map: vision.GridFinal (7×7×1280, the default)
	// or vision.GridBlock13 (14×14×576).
	Grid vision.Grid
	// Fit is how images that are not square become the encoder's square
	// input. Default (zero) vision.Squash. The project's Flickr8k images are
	// already 224×224, so both fits give the same features there.
	Fit vision.Fit
	// Threads is the number of goroutines one extraction may use. Zero
	// means 1: BuildCache runs workers in parallel over images, which
	// scales better than splitting one image.
	Threads int
}

// EncoderExtractor extracts features with the MobileNetV2 encoder of
// package vision: decode (any format vision reads, EXIF orientation
// applied), crop or squash to the input size, run the network to the
// chosen grid.
type EncoderExtractor struct {
	enc    *vision.Encoder
	pre    *vision.Preprocessor
	fit    vision.Fit
	spec   Spec
	tensor vision.Tensor
}

// LoadExtractor loads the encoder model file at path (find it with
// vision.LocateEncoder) and returns an Extractor whose Spec records the
// file's SHA-256.
func LoadExtractor(path string, opts *ExtractorOptions) (*EncoderExtractor, error) {
	var o ExtractorOptions
	if opts != nil {
		o = *opts
	}
	if o.Threads == 0 {
		o.Threads = 1
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("captiondata: encoder: %w", err)
	}
	sum := sha256.Sum256(data)
	enc, err := vision.NewEncoder(data, &vision.EncoderOptions{Grid: o.Grid, Threads: o.Threads})
	if err != nil {
		return nil, fmt.Errorf("captiondata: encoder %s: %w", path, err)
	}
	return NewEncoderExtractor(enc, hex.EncodeToString(sum[:]), o.Fit)
}

// NewEncoderExtractor returns an Extractor running enc, whose model file
// has the given SHA-256 (hex), preprocessing images with fit. The
// Extractor owns enc from then on.
func NewEncoderExtractor(enc *vision.Encoder, sha256Hex string, fit vision.Fit) (*EncoderExtractor, error) {
	pre, err := enc.NewPreprocessor(&vision.PreprocessOptions{Fit: fit})
	if err != nil {
		return nil, fmt.Errorf("captiondata: %w", err)
	}
	h, w, d := enc.GridShape()
	size := enc.InputSize()
	e := &EncoderExtractor{
		enc: enc, pre: pre, fit: fit,
		spec: Spec{
			Encoder:    sha256Hex,
			Layer:      enc.Grid().String(),
			H:          h,
			W:          w,
			D:          d,
			Preprocess: fmt.Sprintf("%v %d", fit, size),
		},
		tensor: vision.Tensor{C: 3, H: size, W: size, Data: make([]float32, 3*size*size)},
	}
	if err := e.spec.validate(); err != nil {
		return nil, fmt.Errorf("captiondata: encoder: %w", err)
	}
	return e, nil
}

// Spec describes the features: the model's SHA-256, grid and
// preprocessing.
func (e *EncoderExtractor) Spec() Spec { return e.spec }

// Extract decodes the image file at path and returns its features.
func (e *EncoderExtractor) Extract(dst []float32, path string) ([]float32, error) {
	img, _, err := vision.DecodeFile(path, nil)
	if err != nil {
		return nil, err // vision's errors name the file
	}
	if err := e.pre.TensorInto(e.tensor.Data, img); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	f, err := e.enc.Features(dst, &e.tensor)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Clone returns an Extractor sharing the model weights, with its own
// buffers.
func (e *EncoderExtractor) Clone() Extractor {
	c, err := NewEncoderExtractor(e.enc.Clone(), e.spec.Encoder, e.fit)
	if err != nil {
		panic(err) // e was made from the same encoder and fit
	}
	return c
}
