package vision

import (
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/attend-go/attend/internal/figure"
)

// ErrWeights means attention weights are unusable: the wrong count, a NaN,
// an infinity, a negative value, or a sum that is not 1.
var ErrWeights = errors.New("vision: invalid attention weights")

// WeightSumTolerance is how far the sum of an attention distribution may
// be from 1 before it is refused with ErrWeights (see CheckWeights).
const WeightSumTolerance = figure.WeightSumTolerance

// Smoothing says how a rows×cols attention grid becomes a smooth field
// over pixels.
type Smoothing int

const (
	// SmoothBilinear interpolates linearly between cell centers (edges
	// hold the edge cells' values). A cell's weight is reached at its
	// center, so the field's maximum is the grid's maximum.
	SmoothBilinear Smoothing = iota
	// SmoothGaussian blurs the bilinear field with a Gaussian of
	// HeatmapOptions.Sigma cells, as Xu et al. drew Show, Attend and
	// Tell: upscale the 14×14 map ×16 and filter with σ = 20 pixels,
	// which is 1.25 cells (skimage pyramid_expand). The field is mirrored
	// at the grid's border (half-sample symmetric, scipy's "reflect"),
	// so uniform attention stays uniform; the price is that a peak
	// within σ of the border is drawn up to half a cell closer to it,
	// though still inside its cell. Peaks come out lower and wider.
	SmoothGaussian
	// SmoothNearest paints each cell flat, showing the grid itself.
	SmoothNearest
)

func (s Smoothing) String() string {
	switch s {
	case SmoothBilinear:
		return "bilinear"
	case SmoothGaussian:
		return "gaussian"
	case SmoothNearest:
		return "nearest"
	}
	return fmt.Sprintf("Smoothing(%d)", int(s))
}

// DefaultSigma is the Gaussian's standard deviation in grid cells when
// HeatmapOptions.Sigma is 0: Xu et al.'s σ = 20 pixels at 16 pixels a
// cell.
const DefaultSigma = 1.25

// HeatmapOptions configures Heatmap. A nil *HeatmapOptions, or the zero
// value, means defaults; each field documents its own.
type HeatmapOptions struct {
	// Smoothing chooses the interpolation. Default SmoothBilinear.
	Smoothing Smoothing

	// Sigma is the Gaussian's standard deviation in grid cells for
	// SmoothGaussian, in (0, 64]. Zero means DefaultSigma (1.25).
	Sigma float64

	// Region is the rectangle of the width×height field that the grid
	// covers; pixels outside it get 0 (the model never saw them). An
	// empty Region means the whole field. It must lie inside the field.
	Region image.Rectangle

	// Max is the field value that maps to 1: values are divided by it
	// and clipped to [0, 1]. Zero means the field's own maximum, so the
	// most attended pixel is always 1; 1 keeps the weights absolute,
	// comparable across words and images.
	Max float32
}

// Heat is an attention field over pixels: Values[y*Width+x] in [0, 1] for
// pixel (x, y), ready for a Colormap.
type Heat struct {
	Width, Height int
	Values        []float32
	// Region is the part of the field the grid covers; Values are 0
	// outside it.
	Region image.Rectangle
	// Peak is the largest field value before scaling, an attention weight
	// (for SmoothGaussian, a blurred one).
	Peak float32
	// Max is the weight that Values 1 stands for: HeatmapOptions.Max, or
	// Peak when that was 0.
	Max float32
}

// Heatmap draws an attention distribution over a rows×cols grid (weights
// row-major, cell (r, c) at r*cols+c, summing to 1 within
// WeightSumTolerance) as a width×height field.
//
// The grid's cells tile the field's Region evenly, cell (r, c) covering
// [c, c+1)×[r, r+1) in cell units. Smoothing is separable: the field is
// Y·G·Xᵀ, where G is the grid and Y (height×rows) and X (width×cols) hold
// each pixel row's and column's interpolation weights. Those rows sum to 1
// (Gaussian weights integrate the bilinear field against the kernel and
// are renormalized after truncation at 4σ), so every field value is a
// convex combination of weights and no smoothing creates a value above the
// largest weight. The cost is height·width·rows multiply-adds.
//
// Errors wrap ErrWeights for bad weights and ErrOptions for bad sizes or
// options.
func Heatmap(weights []float32, rows, cols, width, height int, opts *HeatmapOptions) (*Heat, error) {
	var o HeatmapOptions
	if opts != nil {
		o = *opts
	}
	if width < 1 || height < 1 || width > MaxTensorSize || height > MaxTensorSize {
		return nil, fmt.Errorf("%w: heatmap size %d×%d, want 1..%d on each side", ErrOptions, width, height, MaxTensorSize)
	}
	field := image.Rect(0, 0, width, height)
	region := o.Region
	if region.Empty() {
		region = field
	}
	if !region.In(field) {
		return nil, fmt.Errorf("%w: heatmap region %v outside the %d×%d field", ErrOptions, region, width, height)
	}
	return heatmap(weights, rows, cols, width, height, heatRect{
		x0: float64(region.Min.X), y0: float64(region.Min.Y),
		x1: float64(region.Max.X), y1: float64(region.Max.Y),
	}, o)
}

// heatRect is a region in fractional pixels, for regions scaled from the
// original image to a smaller panel.
type heatRect struct{ x0, y0, x1, y1 float64 }

// round returns the pixels whose centers lie in r, the same test
// axisWeights makes: x is inside when r.x0 ≤ x + 0.5 < r.x1.
func (r heatRect) round() image.Rectangle {
	in := func(v float64) int { return int(math.Ceil(v - 0.5)) }
	return image.Rect(in(r.x0), in(r.y0), in(r.x1), in(r.y1))
}

func heatmap(weights []float32, rows, cols, width, height int, region heatRect, o HeatmapOptions) (*Heat, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if err := CheckWeights(weights, rows, cols); err != nil {
		return nil, err
	}
	return heatmapAxes(weights, newHeatAxes(rows, cols, width, height, region, o), o), nil
}

// heatAxes holds the interpolation weights of both axes of a field, which
// depend on the sizes, region and smoothing but not on the weights: a
// figure with many words computes them once.
type heatAxes struct {
	rows, cols, width, height int
	region                    heatRect
	x, y                      axisMatrix
}

// newHeatAxes computes the axes; o must have been checked.
func newHeatAxes(rows, cols, width, height int, region heatRect, o HeatmapOptions) *heatAxes {
	sigma := o.Sigma
	if sigma == 0 {
		sigma = DefaultSigma
	}
	return &heatAxes{
		rows: rows, cols: cols, width: width, height: height, region: region,
		x: axisWeights(width, cols, region.x0, region.x1, o.Smoothing, sigma),
		y: axisWeights(height, rows, region.y0, region.y1, o.Smoothing, sigma),
	}
}

// heatmapAxes computes the field Y·G·Xᵀ and scales it. The weights must
// have passed CheckWeights for a.rows × a.cols.
func heatmapAxes(weights []float32, a *heatAxes, o HeatmapOptions) *Heat {
	rows, cols, width, height := a.rows, a.cols, a.width, a.height
	// tmp = G·Xᵀ: rows × width.
	tmp := make([]float32, rows*width)
	for r := range rows {
		g := weights[r*cols : (r+1)*cols]
		t := tmp[r*width : (r+1)*width]
		for x := range width {
			w := a.x.row(x)
			var s float32
			for c, v := range w {
				s += v * g[c]
			}
			t[x] = s
		}
	}
	// field = Y·tmp: height × width.
	h := &Heat{Width: width, Height: height, Values: make([]float32, width*height), Region: a.region.round()}
	for y := range height {
		dst := h.Values[y*width : (y+1)*width]
		for r, v := range a.y.row(y) {
			if v == 0 {
				continue
			}
			t := tmp[r*width : (r+1)*width]
			for x := range dst {
				dst[x] += v * t[x]
			}
		}
	}
	for _, v := range h.Values {
		h.Peak = max(h.Peak, v)
	}
	h.Max = o.Max
	if h.Max == 0 {
		h.Max = h.Peak
	}
	if h.Max > 0 {
		inv := 1 / h.Max
		for i, v := range h.Values {
			h.Values[i] = min(v*inv, 1)
		}
	}
	return h
}

func (o *HeatmapOptions) check() error {
	switch {
	case o.Smoothing < SmoothBilinear || o.Smoothing > SmoothNearest:
		return fmt.Errorf("%w: unknown %v", ErrOptions, o.Smoothing)
	case !(o.Sigma >= 0 && o.Sigma <= 64):
		return fmt.Errorf("%w: Sigma %v cells, want a value in (0, 64] (or 0 for %v)", ErrOptions, o.Sigma, DefaultSigma)
	case !(o.Max >= 0) || math.IsInf(float64(o.Max), 0):
		return fmt.Errorf("%w: Max %v, want a positive finite value (or 0 for the field's maximum)", ErrOptions, o.Max)
	}
	return nil
}

// CheckWeights reports whether weights are a valid rows×cols attention
// distribution: rows, cols ≥ 1, len(weights) = rows·cols, every value
// finite and non-negative, and the sum within WeightSumTolerance of 1. The
// error wraps ErrWeights and names the first offending cell.
func CheckWeights(weights []float32, rows, cols int) error {
	return figure.CheckWeights(ErrWeights, weights, rows, cols, MaxTensorSize)
}
