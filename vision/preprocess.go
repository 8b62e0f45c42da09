package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"golang.org/x/image/draw"
)

// Fit says how an image of any aspect ratio becomes a size×size square.
// Its zero value, Squash, is the default everywhere a Fit is an option:
// the caption model was trained on squashed images, and every pixel of a
// squashed photo lies under the attention grid.
type Fit int

const (
	// Squash scales the whole image to size×size, distorting the aspect
	// ratio but keeping every region (Show, Attend and Tell resized this
	// way). It is the zero value, the default.
	Squash Fit = iota
	// CenterCrop keeps the central square of the image (its side a
	// CropFraction of the shorter side) and scales it to size×size:
	// the same pixels as resizing the shorter side to size and cropping
	// the middle, in one resampling pass. Aspect ratio is preserved; the
	// ends of the longer side are lost. ImageNet classifiers were
	// evaluated this way.
	CenterCrop
)

func (f Fit) String() string {
	switch f {
	case CenterCrop:
		return "CenterCrop"
	case Squash:
		return "Squash"
	}
	return fmt.Sprintf("Fit(%d)", int(f))
}

// MarshalText writes f as its String ("Squash", "CenterCrop"), as the
// JSON of a caption shows it.
func (f Fit) MarshalText() ([]byte, error) {
	if f != Squash && f != CenterCrop {
		return nil, fmt.Errorf("%w: unknown %v", ErrOptions, f)
	}
	return []byte(f.String()), nil
}

// UnmarshalText reads what MarshalText writes.
func (f *Fit) UnmarshalText(b []byte) error {
	switch string(b) {
	case "Squash":
		*f = Squash
	case "CenterCrop":
		*f = CenterCrop
	default:
		return fmt.Errorf("%w: unknown fit %q, want Squash or CenterCrop", ErrOptions, b)
	}
	return nil
}

// MaxTensorSize is the largest output side a Preprocessor accepts.
const MaxTensorSize = 8192

// PreprocessOptions configures a Preprocessor. A nil *PreprocessOptions,
// or the zero value, means defaults; each field documents its own.
type PreprocessOptions struct {
	// Fit chooses how the aspect ratio is handled. Default (zero) Squash.
	Fit Fit

	// CropFraction is the side of the CenterCrop square as a fraction of
	// the image's shorter side, in (0, 1]. Zero means 1 (the largest
	// central square). 0.875 reproduces the "resize to 256, crop 224"
	// evaluation of ImageNet models. Ignored by Squash.
	CropFraction float64

	// Interpolator resamples the image. Nil means draw.BiLinear, which
	// like every draw.Kernel widens its support when shrinking and so
	// averages all covered source pixels (no aliasing). draw.CatmullRom
	// is sharper and about twice as slow; draw.ApproxBiLinear and
	// draw.NearestNeighbor are faster but alias when shrinking.
	Interpolator draw.Interpolator

	// Norm maps bytes to model inputs. The zero value means ImageNetNorm.
	Norm Normalization

	// Background is what translucent pixels are composited over. Nil
	// means white; alpha is ignored as in Flatten.
	Background color.Color
}

// Preprocessor turns images into fixed-size model inputs: crop or squash,
// resample, composite alpha, normalize to CHW float32.
//
// It reuses its buffers between calls, so it is not safe for concurrent
// use; use one Preprocessor per goroutine. Its configuration never changes
// after NewPreprocessor.
type Preprocessor struct {
	size   int
	fit    Fit
	crop   float64
	interp draw.Interpolator
	norm   Normalization
	lut    *lut
	bg     color.RGBA

	scratch *image.RGBA // size×size, reused by TensorInto
	// scaler caches a draw.Scaler (whose temporary buffer is pooled) for
	// the source size of the previous call: a batch of same-size images
	// then resamples without allocating.
	scaler       draw.Scaler
	scalerSource image.Point
}

// NewPreprocessor returns a Preprocessor producing size×size outputs
// (1 ≤ size ≤ MaxTensorSize). It returns an error wrapping ErrOptions for
// an invalid size or option.
func NewPreprocessor(size int, opts *PreprocessOptions) (*Preprocessor, error) {
	if size < 1 || size > MaxTensorSize {
		return nil, fmt.Errorf("%w: size %d, want 1..%d", ErrOptions, size, MaxTensorSize)
	}
	var o PreprocessOptions
	if opts != nil {
		o = *opts
	}
	if o.Fit != CenterCrop && o.Fit != Squash {
		return nil, fmt.Errorf("%w: unknown %v, want CenterCrop or Squash", ErrOptions, o.Fit)
	}
	if o.CropFraction == 0 {
		o.CropFraction = 1
	}
	if !(o.CropFraction > 0 && o.CropFraction <= 1) {
		return nil, fmt.Errorf("%w: CropFraction %v, want a value in (0, 1] (or 0 for 1)", ErrOptions, o.CropFraction)
	}
	if o.Interpolator == nil {
		o.Interpolator = draw.BiLinear
	}
	if o.Norm.isZero() {
		o.Norm = ImageNetNorm
	}
	if err := o.Norm.validate(); err != nil {
		return nil, err
	}
	return &Preprocessor{
		size:   size,
		fit:    o.Fit,
		crop:   o.CropFraction,
		interp: o.Interpolator,
		norm:   o.Norm,
		lut:    o.Norm.table(),
		bg:     opaqueColor(o.Background),
	}, nil
}

// Size returns the side of the square outputs.
func (p *Preprocessor) Size() int { return p.size }

// Normalization returns the mapping from bytes to tensor values in use.
func (p *Preprocessor) Normalization() Normalization { return p.norm }

// CropRect returns the part of an image with the given bounds that becomes
// the output: the bounds themselves for Squash, the central square for
// CenterCrop. Output pixel (u, v) covers the source point
// (r.Min.X + (u+0.5)·r.Dx()/size, r.Min.Y + (v+0.5)·r.Dy()/size), which is
// how attention heatmaps are mapped back onto the original image.
func (p *Preprocessor) CropRect(bounds image.Rectangle) image.Rectangle {
	if p.fit == Squash || bounds.Empty() {
		return bounds
	}
	w, h := bounds.Dx(), bounds.Dy()
	side := int(math.Round(float64(min(w, h)) * p.crop))
	side = max(side, 1)
	x0 := bounds.Min.X + (w-side)/2
	y0 := bounds.Min.Y + (h-side)/2
	return image.Rect(x0, y0, x0+side, y0+side)
}

// Resize returns the size×size opaque RGB image the model sees: img
// cropped or squashed, resampled, and composited over the background. It
// is a new image, not shared with the Preprocessor.
func (p *Preprocessor) Resize(img image.Image) (*image.RGBA, error) {
	dst := image.NewRGBA(image.Rect(0, 0, p.size, p.size))
	if err := p.resizeInto(dst, img); err != nil {
		return nil, err
	}
	return dst, nil
}

// Tensor returns img preprocessed as a new 3×size×size Tensor.
func (p *Preprocessor) Tensor(img image.Image) (*Tensor, error) {
	t := &Tensor{C: 3, H: p.size, W: p.size, Data: make([]float32, 3*p.size*p.size)}
	if err := p.TensorInto(t.Data, img); err != nil {
		return nil, err
	}
	return t, nil
}

// TensorInto writes img preprocessed into dst in CHW layout (see Tensor);
// len(dst) must be 3·size·size. Packing a batch is a loop of TensorInto
// over consecutive slices of one buffer. After the first call for a given
// source size it does not allocate.
func (p *Preprocessor) TensorInto(dst []float32, img image.Image) error {
	if want := 3 * p.size * p.size; len(dst) != want {
		return fmt.Errorf("%w: TensorInto destination has %d values, want 3*%d*%d = %d",
			ErrOptions, len(dst), p.size, p.size, want)
	}
	if p.scratch == nil {
		p.scratch = image.NewRGBA(image.Rect(0, 0, p.size, p.size))
	}
	if err := p.resizeInto(p.scratch, img); err != nil {
		return err
	}
	p.lut.toCHW(dst, p.scratch)
	return nil
}

// ToTensor preprocesses one image to a 3×size×size Tensor with a
// throwaway Preprocessor. Use a Preprocessor for many images.
func ToTensor(img image.Image, size int, opts *PreprocessOptions) (*Tensor, error) {
	p, err := NewPreprocessor(size, opts)
	if err != nil {
		return nil, err
	}
	return p.Tensor(img)
}

// resizeInto fills dst (size×size at the origin) from img in one
// resampling pass. Opaque sources are copied with draw.Src; others are
// drawn with draw.Over onto the background, which composites and resamples
// together. x/image/draw has type-specific loops for *image.YCbCr,
// *image.RGBA, *image.NRGBA and *image.Gray sources and an RGBA64At path
// for the other standard types, so no pixel goes through color.Color.
func (p *Preprocessor) resizeInto(dst *image.RGBA, img image.Image) error {
	if img == nil {
		return fmt.Errorf("%w: nil image", ErrOptions)
	}
	b := img.Bounds()
	if b.Empty() {
		return fmt.Errorf("%w: image bounds %v are empty", ErrDimensions, b)
	}
	sr := p.CropRect(b)
	op := draw.Src
	if !isOpaque(img) {
		fill(dst, p.bg)
		op = draw.Over
	}
	p.scalerFor(sr.Size()).Scale(dst, dst.Rect, img, sr, op, nil)
	return nil
}

// scalerFor returns the interpolator, or for a draw.Kernel a Scaler sized
// for the source, cached across calls with the same source size.
func (p *Preprocessor) scalerFor(src image.Point) draw.Scaler {
	k, ok := p.interp.(*draw.Kernel)
	if !ok {
		return p.interp
	}
	if p.scaler == nil || p.scalerSource != src {
		p.scaler = k.NewScaler(p.size, p.size, src.X, src.Y)
		p.scalerSource = src
	}
	return p.scaler
}
