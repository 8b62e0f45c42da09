package captiondata

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"slices"

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
	// Mirror flips every image left to right before encoding: the
	// features of a second view of each training image, for training
	// with mirrored images (captioning.TrainOptions.MirrorCache). The
	// cache's Spec.Preprocess then ends in " mirrored".
	Mirror bool
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
	mirror bool
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
	x, err := NewEncoderExtractor(enc, hex.EncodeToString(sum[:]), o.Fit)
	if err != nil {
		return nil, err
	}
	if o.Mirror {
		x.setMirror()
	}
	return x, nil
}

// MirroredSuffix ends the Spec.Preprocess of features of mirrored images.
const MirroredSuffix = " mirrored"

// setMirror makes e flip images left to right before encoding.
func (e *EncoderExtractor) setMirror() {
	e.mirror = true
	e.spec.Preprocess += MirroredSuffix
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
	if e.mirror {
		mirrorRows(e.tensor.Data, e.tensor.W)
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
	if e.mirror {
		c.setMirror()
	}
	return c
}

// mirrorRows reverses every row of w values of t (a C×H×W tensor's
// data): the image flipped left to right.
func mirrorRows(t []float32, w int) {
	for r := 0; r+w <= len(t); r += w {
		slices.Reverse(t[r : r+w])
	}
}
