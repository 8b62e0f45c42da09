package vision

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/attend-go/attend/internal/figure"
	"golang.org/x/image/draw"
)

// HeatScale says which attention weight gets the top color of the
// colormap.
type HeatScale int

const (
	// ScalePanelMax stretches each panel to its own maximum: the most
	// attended pixel of every word gets the top color. Best to see where
	// each word looked; hides how peaked it was (the legend and the
	// "max" under each panel say that).
	ScalePanelMax HeatScale = iota
	// ScaleShared uses the largest value over all panels of one call, so
	// panels compare: a diffuse word looks dim next to a sharp one.
	ScaleShared
	// ScaleAbsolute maps weight 1 to the top color: comparable across
	// images, but a 14×14 grid's weights are mostly below 0.05 and look
	// dark.
	ScaleAbsolute
)

func (s HeatScale) String() string {
	switch s {
	case ScalePanelMax:
		return "panel-max"
	case ScaleShared:
		return "shared"
	case ScaleAbsolute:
		return "absolute"
	}
	return fmt.Sprintf("HeatScale(%d)", int(s))
}

// Defaults of OverlayOptions.
const (
	// DefaultAlpha is the opacity of the heat colors over the photo
	// where attention is highest.
	DefaultAlpha = 0.7
	// alphaFloor is the fraction of Alpha that the least attended pixels
	// get unless ConstantAlpha is set.
	alphaFloor = 0.2
	// DefaultMaskAlpha is the depth of the Mask: unattended pixels keep
	// 1 − 0.8 = 20% of their brightness.
	DefaultMaskAlpha = 0.8
	// DefaultPanelSize is the long side of a panel in OverlayPanels and
	// OverlayGIF.
	DefaultPanelSize = 224
	// MaxOverlaySize is the largest long side Overlay draws.
	MaxOverlaySize = 4096
)

// OverlayOptions configures Overlay, OverlayPanels and OverlayGIF. A nil
// *OverlayOptions, or the zero value, means defaults; each field documents
// its own.
type OverlayOptions struct {
	// Colormap colors the attention. Nil means Inferno. Mask darkens the
	// unattended part of the photo instead of coloring it.
	Colormap *Colormap

	// Alpha is the strength of the overlay, in (0, 1]. For a color map,
	// out = (1−a)·photo + a·color(v), v the scaled weight, with opacity
	// a = Alpha·(0.2 + 0.8·v): the colors grow opaque where attention is
	// high and the rest of the photo stays readable. Zero means
	// DefaultAlpha (0.7). For Mask, out = photo·(1 − Alpha·(1 − v));
	// zero means DefaultMaskAlpha (0.8).
	Alpha float64

	// ConstantAlpha blends every pixel with opacity Alpha, the classic
	// look in which the whole photo is tinted by the colormap (and the
	// colors match the legend exactly). Ignored by Mask.
	ConstantAlpha bool

	// Smoothing and Sigma shape the field as in HeatmapOptions. Default
	// SmoothBilinear; Sigma 0 means DefaultSigma cells.
	Smoothing Smoothing
	Sigma     float64

	// Scale chooses the weight that gets the top color. Default
	// ScalePanelMax.
	Scale HeatScale

	// Fit and CropFraction say which part of the image the attention grid
	// covers, and must match the Preprocessor that made the model's input
	// (same meaning and defaults as in PreprocessOptions: Squash; for
	// CenterCrop, the whole shorter side). With CenterCrop the grid covers the central
	// square and the rest of the photo, which the model never saw, is
	// drawn faded and gray; with Squash it covers the whole image.
	Fit          Fit
	CropFraction float64

	// Region, when not empty, overrides Fit and CropFraction: the
	// rectangle of the image, in its own coordinates, that the grid
	// covers (Preprocessor.CropRect returns it). It must lie inside the
	// image's bounds.
	Region image.Rectangle

	// Size is the long side of each drawn image in pixels, up to
	// MaxOverlaySize; the short side follows the image's aspect ratio.
	// Zero means the image's own size (capped at MaxOverlaySize) for
	// Overlay and DefaultPanelSize (224) for the panels of OverlayPanels
	// and OverlayGIF.
	Size int
}

// Overlay draws one attention distribution over a rows×cols grid (weights
// row-major, summing to 1; see CheckWeights) on img, and returns a new
// image with img's aspect ratio. The grid is mapped onto the part of img
// the model saw (OverlayOptions.Fit or Region), so the heat lands on the
// pixels it belongs to. Errors wrap ErrWeights for bad weights and
// ErrOptions or ErrDimensions for a bad image or options.
//
// What follows is the manual of the attention pictures: Overlay,
// OverlayPanels, OverlayGIF and the Heatmap under them.
//
// Weights. A caption decoder attends over L = rows×cols grid cells (7×7
// for GridFinal, 14×14 for GridBlock13); cell (r, c) is weight r·cols + c.
// CheckWeights refuses, with ErrWeights naming the cell, a wrong count, a
// NaN, an infinity, a negative weight, or a sum further than
// WeightSumTolerance (1e-3) from 1. Weights are not renormalized: a sum
// far from 1 means the caller passed logits, α·β or a row of the wrong
// matrix. (A row of pipeline/plot's AlignmentPlot is checked the same way.)
//
// Placement. The model saw a square: the photo's central square
// (CenterCrop) or the whole photo squashed (Squash, the Preprocessor's
// default). The grid's cells tile that rectangle evenly, in the photo's
// own coordinates (Preprocessor.CropRect; or OverlayOptions.Region), and
// the picture keeps the photo's aspect ratio: a 640×480 photo gives
// 640×480 overlays and 224×168 panels. What the model never saw (the
// sides of a center crop) is drawn as flat gray behind a thin frame.
//
// Smoothing. Heatmap turns the grid G into a field over pixels,
// F = Y·G·Xᵀ, where row y of Y (height×rows) and row x of X (width×cols)
// hold pixel row y's and column x's interpolation weights:
//
//	SmoothBilinear  (default) linear between cell centers, flat beyond
//	                the outer ones; a cell's weight is reached at its center
//	SmoothGaussian  Xu et al.'s look: the bilinear field blurred by a
//	                Gaussian of σ = 1.25 cells (their σ = 20 px at 16 px a
//	                cell), mirrored at the border; equal to SciPy's
//	                gaussian_filter(mode="reflect") within 2e-6
//	SmoothNearest   each cell a flat block: the grid itself
//
// Every row of X and Y sums to 1, so each pixel is a convex combination
// of weights and no smoothing invents a value above the largest weight.
// The field costs height·width·rows multiply-adds; a figure computes X
// and Y once for all its words.
//
// Scale and color. The field is divided by the weight that gets the top
// color (HeatScale): each panel's own maximum (ScalePanelMax, the
// default; the panel's largest weight is printed under it), the largest
// over all panels (ScaleShared, to compare words), or 1 (ScaleAbsolute).
// A colormap is blended with opacity a = Alpha·(0.2 + 0.8·v) for the
// scaled value v (Alpha 0.7), so weakly attended parts of the photo stay
// readable and attended ones are strongly colored; ConstantAlpha gives
// the classic uniform tint. Inferno is the default colormap: perceptually
// uniform and monotone in lightness, so the most attended cell is the
// brightest (Turbo's dark red top end makes a peak look like a hole in
// the smooth upsampled field); Viridis is its blue–yellow twin, Turbo a
// vivid rainbow. Mask instead
// dims the photo to photo·(1 − Alpha·(1 − v)) (Alpha 0.8): a spotlight
// on what the model looked at, as in Xu et al.'s figures.
//
// Figures. OverlayPanels draws the input image and then one panel per
// word, in rows of Columns (5), each panel 224 pixels on its long side,
// with the word under it in bold and "max 0.079 · β 0.50" in gray, a
// dashed outline on the most attended cell (Panel.Peak), a solid outline
// on the cell hard attention sampled (Panel.Marker), and a legend with a
// colorbar ("attention weight 0 … panel max") and what the outlines
// mean. OverlayGIF shows the same panels one per frame. Text is set in the Inconsolata 8×16 bitmap font with α, β
// and ␣ added, magnified 2× for panels of 672 pixels and more.
//
// Speed: ten words over a 640×480 photo (BenchmarkOverlayPanels10Words,
// 14×14 grid, GOMAXPROCS=1) took 18–20 ms of CPU time, 30–36 ms of wall
// time on a shared 2-core Xeon whose other core was training a model;
// SmoothGaussian costs about 1 ms more, as the axes are shared.
func Overlay(img image.Image, weights []float32, rows, cols int, opts *OverlayOptions) (*image.RGBA, error) {
	ov, err := newOverlayer(img, opts, 0)
	if err != nil {
		return nil, err
	}
	h, err := ov.heat(weights, rows, cols, 0)
	if err != nil {
		return nil, err
	}
	dst := image.NewRGBA(ov.base.Rect)
	ov.blend(dst, h)
	return dst, nil
}

// overlayer holds what all panels of one image share: the photo scaled to
// the panel size and where the grid lies on it.
type overlayer struct {
	o      OverlayOptions
	base   *image.RGBA // the photo at panel size, opaque
	region heatRect    // the grid's rectangle on base
	cmap   *Colormap
	alpha  float64

	// Shared by every panel, made on first use: the axes' interpolation
	// weights (the costly part of SmoothGaussian) and the faded photo
	// drawn outside the region.
	axes      *heatAxes
	unseen    []uint8 // faded base, 4 bytes a pixel like base.Pix
	unseenSet bool
}

// newOverlayer validates img and opts and scales img to the panel size:
// opts.Size, or defaultSize, or the image's own size when both are 0.
func newOverlayer(img image.Image, opts *OverlayOptions, defaultSize int) (*overlayer, error) {
	var o OverlayOptions
	if opts != nil {
		o = *opts
	}
	if img == nil {
		return nil, fmt.Errorf("%w: nil image", ErrOptions)
	}
	b := img.Bounds()
	if b.Empty() {
		return nil, fmt.Errorf("%w: image bounds %v are empty", ErrDimensions, b)
	}
	if err := o.check(); err != nil {
		return nil, err
	}
	size := o.Size
	if size == 0 {
		size = defaultSize
	}
	if size == 0 {
		size = min(max(b.Dx(), b.Dy()), MaxOverlaySize)
	}
	region := o.Region
	if region.Empty() {
		p, err := NewPreprocessor(1, &PreprocessOptions{Fit: o.Fit, CropFraction: o.CropFraction})
		if err != nil {
			return nil, err
		}
		region = p.CropRect(b)
	} else if !region.In(b) {
		return nil, fmt.Errorf("%w: Region %v is not inside the image bounds %v", ErrOptions, region, b)
	}
	w, h := fitLongSide(b.Dx(), b.Dy(), size)
	ov := &overlayer{o: o, base: image.NewRGBA(image.Rect(0, 0, w, h)), cmap: o.Colormap, alpha: o.Alpha}
	if ov.cmap == nil {
		ov.cmap = Inferno
	}
	if ov.alpha == 0 {
		ov.alpha = DefaultAlpha
		if ov.cmap.IsMask() {
			ov.alpha = DefaultMaskAlpha
		}
	}
	sx, sy := float64(w)/float64(b.Dx()), float64(h)/float64(b.Dy())
	ov.region = heatRect{
		x0: float64(region.Min.X-b.Min.X) * sx, y0: float64(region.Min.Y-b.Min.Y) * sy,
		x1: float64(region.Max.X-b.Min.X) * sx, y1: float64(region.Max.Y-b.Min.Y) * sy,
	}
	op := draw.Src
	if !isOpaque(img) {
		draw.Draw(ov.base, ov.base.Rect, image.NewUniform(color.White), image.Point{}, draw.Src)
		op = draw.Over
	}
	if w == b.Dx() && h == b.Dy() {
		draw.Draw(ov.base, ov.base.Rect, img, b.Min, op)
	} else {
		draw.BiLinear.Scale(ov.base, ov.base.Rect, img, b, op, nil)
	}
	return ov, nil
}

func (o *OverlayOptions) check() error {
	switch {
	case !(o.Alpha >= 0 && o.Alpha <= 1):
		return fmt.Errorf("%w: Alpha %v, want a value in (0, 1] (or 0 for the default)", ErrOptions, o.Alpha)
	case o.Scale < ScalePanelMax || o.Scale > ScaleAbsolute:
		return fmt.Errorf("%w: unknown %v", ErrOptions, o.Scale)
	case o.Size < 0 || o.Size > MaxOverlaySize:
		return fmt.Errorf("%w: Size %d, want 1..%d (or 0 for the default)", ErrOptions, o.Size, MaxOverlaySize)
	}
	h := HeatmapOptions{Smoothing: o.Smoothing, Sigma: o.Sigma}
	return h.check()
}

// fitLongSide returns the size of a w×h image scaled so that its long
// side is size, each side at least 1.
func fitLongSide(w, h, size int) (int, int) {
	if w >= h {
		return size, max(1, int(math.Round(float64(size)*float64(h)/float64(w))))
	}
	return max(1, int(math.Round(float64(size)*float64(w)/float64(h)))), size
}

// heat computes the field of one panel. max is the weight of the top color
// (0: the panel's own maximum).
func (ov *overlayer) heat(weights []float32, rows, cols int, maxWeight float32) (*Heat, error) {
	if ov.o.Scale == ScaleAbsolute {
		maxWeight = 1
	}
	r := ov.base.Rect
	o := HeatmapOptions{Smoothing: ov.o.Smoothing, Sigma: ov.o.Sigma, Max: maxWeight}
	if err := CheckWeights(weights, rows, cols); err != nil {
		return nil, err
	}
	if ov.axes == nil || ov.axes.rows != rows || ov.axes.cols != cols {
		ov.axes = newHeatAxes(rows, cols, r.Dx(), r.Dy(), ov.region, o)
	}
	return heatmapAxes(weights, ov.axes, o), nil
}

// blend draws base with the heat over it into dst (same bounds as base).
// Pixels outside the grid's region are drawn faded to gray.
func (ov *overlayer) blend(dst *image.RGBA, h *Heat) {
	// lut[i] = {a, a·R, a·G, a·B} for value i/255, opacity a in 1/256
	// units; for Mask, a is the brightness factor.
	var lut [256][4]int32
	for i := range lut {
		c, v := ov.cmap.Entry(uint8(i)), float64(i)/255
		if ov.cmap.IsMask() {
			f := int32(math.Round(256 * (1 - ov.alpha*(1-v))))
			lut[i] = [4]int32{f}
			continue
		}
		av := ov.alpha
		if !ov.o.ConstantAlpha {
			av *= alphaFloor + (1-alphaFloor)*v
		}
		a := int32(math.Round(256 * av))
		lut[i] = [4]int32{a, a * int32(c.R), a * int32(c.G), a * int32(c.B)}
	}
	inside := h.Region
	w, ht := h.Width, h.Height
	for y := range ht {
		src := ov.base.Pix[y*ov.base.Stride : y*ov.base.Stride+4*w]
		out := dst.Pix[y*dst.Stride : y*dst.Stride+4*w]
		vals := h.Values[y*w : (y+1)*w]
		rowIn := y >= inside.Min.Y && y < inside.Max.Y
		for x, v := range vals {
			p := src[4*x : 4*x+4 : 4*x+4]
			q := out[4*x : 4*x+4 : 4*x+4]
			if !rowIn || x < inside.Min.X || x >= inside.Max.X {
				copy(q, ov.unseenPix(y, x))
				continue
			}
			l := &lut[figure.LUTIndex(v)]
			if ov.cmap.IsMask() {
				q[0] = uint8(int32(p[0]) * l[0] >> 8)
				q[1] = uint8(int32(p[1]) * l[0] >> 8)
				q[2] = uint8(int32(p[2]) * l[0] >> 8)
			} else {
				keep := 256 - l[0]
				q[0] = uint8((int32(p[0])*keep + l[1]) >> 8)
				q[1] = uint8((int32(p[1])*keep + l[2]) >> 8)
				q[2] = uint8((int32(p[2])*keep + l[3]) >> 8)
			}
			q[3] = 255
		}
	}
}

// unseenPix returns the faded pixel (x, y) of the base image.
func (ov *overlayer) unseenPix(y, x int) []uint8 {
	if !ov.unseenSet {
		b := ov.base
		ov.unseen = make([]uint8, 4*b.Rect.Dx()*b.Rect.Dy())
		for yy := range b.Rect.Dy() {
			for xx := range b.Rect.Dx() {
				i := 4 * (yy*b.Rect.Dx() + xx)
				fadeUnseen(ov.unseen[i:i+4], b.Pix[yy*b.Stride+4*xx:])
			}
		}
		ov.unseenSet = true
	}
	i := 4 * (y*ov.base.Rect.Dx() + x)
	return ov.unseen[i : i+4]
}

// fadeUnseen writes the pixel p as a flat, low-contrast gray, the look of
// the part of the photo outside the model's input.
func fadeUnseen(q, p []uint8) {
	l := (299*uint32(p[0]) + 587*uint32(p[1]) + 114*uint32(p[2])) / 1000
	v := uint8(120 + l*80/255)
	q[0], q[1], q[2], q[3] = v, v, v, 255
}
