package plot

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/attend-go/attend/internal/figure"
	"golang.org/x/image/font"
)

// Spectrogram is a time–frequency matrix to draw: Frames rows of Bins
// values (for example log-mel energies), frame-major like audio.Features:
// Data[t*Bins+b] is bin b of frame t, bin 0 the lowest frequency.
type Spectrogram struct {
	Frames, Bins int
	Data         []float32
	// FrameShift is the hop between frames. Zero means 10 ms.
	FrameShift time.Duration
}

// Alignment is the attention of a sequence decoder over encoder frames:
// Outputs rows of Frames weights, row-major, each row a distribution
// summing to 1 (see CheckWeights).
type Alignment struct {
	Outputs, Frames int
	Weights         []float32
	// Labels names each output (a character or word piece): len(Labels)
	// is Outputs, or Labels is nil to number the outputs. A space is
	// drawn as "␣".
	Labels []string
	// Posteriors says the rows are not attention but, per output, its
	// probability at each frame under a frame classifier (a CTC head's
	// posteriors of the output's token): each weight in [0, 1], rows not
	// summing to 1. They are drawn on an absolute scale, 0 to 1.
	Posteriors bool
	// FrameDuration is the time one encoder frame spans (the spectrogram
	// frame shift times the encoder's time reduction, e.g. 8 × 10 ms for
	// three pyramid layers). Zero means the spectrogram's duration
	// divided by Frames.
	FrameDuration time.Duration
}

// AlignmentOptions configures AlignmentPlot. A nil *AlignmentOptions, or
// the zero value, means defaults; each field documents its own.
type AlignmentOptions struct {
	// WordBoundaries are times drawn as dashed vertical lines across both
	// panels, each in [0, duration].
	WordBoundaries []time.Duration

	// Width is the plot area's width in pixels (the time axis), at most
	// MaxWidth. Zero means two pixels per spectrogram frame, within
	// 400..1600.
	Width int

	// SpecColormap colors the spectrogram; nil means Inferno. Values are
	// stretched from their 1st percentile to their maximum.
	SpecColormap *figure.Colormap

	// Colormap colors the alignment; nil means Viridis. Mask draws it in
	// grays.
	Colormap *figure.Colormap

	// Absolute gives weight 1 the top color of the alignment; by default
	// the largest weight of the matrix has it.
	Absolute bool

	// RowHeight is the height of one output's row in pixels, 2..64. Zero
	// means 16, reduced for long outputs so the matrix stays within
	// 1200 pixels (labels are then written on every few rows only).
	RowHeight int

	// Title, if not empty, is written above the plot.
	Title string

	// Note, if not empty, is written under the title, in red: what the
	// reader must know to read the figure right.
	Note string

	// Path, if not nil, holds one encoder frame per output, marked by a
	// white-edged box in its row: the frames a decoder placed the outputs
	// on. A frame of -1 marks none.
	Path []int

	// OutputCaption names the outputs along the alignment's vertical
	// axis; empty means "output". When rows are too thin to label each,
	// the caption says which are labelled.
	OutputCaption string
}

// alignPlot holds the geometry of one AlignmentPlot.
type alignPlot struct {
	spec     Spectrogram
	al       Alignment
	o        AlignmentOptions
	duration float64 // seconds along the time axis
	encSec   float64 // seconds per encoder frame
	shiftSec float64 // seconds per spectrogram frame

	face, bold font.Face
	plot       image.Rectangle // x extent of both panels
	specRect   image.Rectangle
	alignRect  image.Rectangle
	rowH       int
	width      int
	height     int
}

// AlignmentPlot draws a speech recognizer's attention: the spectrogram on
// top (time to the right, low frequencies at the bottom) and below it the
// alignment matrix, one row per output with its label on the left and
// encoder frames along the same time axis, so that each output's row lies
// under the sounds it attended to. Word boundaries are dashed lines across
// both. Both panels have time ticks in seconds; the alignment also numbers
// encoder frames along its top. Colorbars on the right say what the colors
// mean.
//
// Errors wrap ErrOptions for inconsistent shapes, NaN spectrogram values,
// boundaries outside the audio and bad options, and ErrWeights, naming
// the output, for an alignment row that is not a distribution.
func AlignmentPlot(spec Spectrogram, al Alignment, opts *AlignmentOptions) (*image.RGBA, error) {
	p, err := newAlignPlot(spec, al, opts)
	if err != nil {
		return nil, err
	}
	dst := image.NewRGBA(image.Rect(0, 0, p.width, p.height))
	figure.FillRect(dst, dst.Rect, figure.Paper)
	p.drawSpectrogram(dst)
	p.drawAlignment(dst)
	p.drawBoundaries(dst)
	p.drawAxes(dst)
	return dst, nil
}

func newAlignPlot(spec Spectrogram, al Alignment, opts *AlignmentOptions) (*alignPlot, error) {
	p := &alignPlot{spec: spec, al: al}
	if opts != nil {
		p.o = *opts
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	if p.spec.FrameShift == 0 {
		p.spec.FrameShift = 10 * time.Millisecond
	}
	p.shiftSec = p.spec.FrameShift.Seconds()
	specSec := float64(spec.Frames) * p.shiftSec
	p.encSec = al.FrameDuration.Seconds()
	if al.FrameDuration == 0 {
		p.encSec = specSec / float64(al.Frames)
	}
	p.duration = max(specSec, float64(al.Frames)*p.encSec)
	for i, b := range p.o.WordBoundaries {
		if b < 0 || b.Seconds() > p.duration*(1+1e-9) {
			return nil, fmt.Errorf("%w: WordBoundaries[%d] = %v is outside the audio (0..%.3fs)", ErrOptions, i, b, p.duration)
		}
	}
	if p.o.SpecColormap == nil {
		p.o.SpecColormap = figure.Inferno
	}
	if p.o.Colormap == nil {
		p.o.Colormap = figure.Viridis
	}
	p.layout()
	return p, nil
}

func (p *alignPlot) check() error {
	s, a, o := &p.spec, &p.al, &p.o
	switch {
	case s.Frames < 1 || s.Bins < 1 || s.Frames > 1<<20 || s.Bins > 4096:
		return fmt.Errorf("%w: spectrogram of %d frames × %d bins, want 1..%d × 1..4096", ErrOptions, s.Frames, s.Bins, 1<<20)
	case len(s.Data) != s.Frames*s.Bins:
		return fmt.Errorf("%w: spectrogram of %d frames × %d bins holds %d values, want %d", ErrOptions, s.Frames, s.Bins, len(s.Data), s.Frames*s.Bins)
	case s.FrameShift < 0:
		return fmt.Errorf("%w: spectrogram FrameShift %v is negative", ErrOptions, s.FrameShift)
	case a.Outputs < 1 || a.Frames < 1 || a.Outputs > 1<<16 || a.Frames > 1<<20:
		return fmt.Errorf("%w: alignment of %d outputs × %d frames, want 1..%d × 1..%d", ErrOptions, a.Outputs, a.Frames, 1<<16, 1<<20)
	case len(a.Weights) != a.Outputs*a.Frames:
		return fmt.Errorf("%w: alignment of %d outputs × %d frames holds %d weights, want %d", ErrOptions, a.Outputs, a.Frames, len(a.Weights), a.Outputs*a.Frames)
	case a.Labels != nil && len(a.Labels) != a.Outputs:
		return fmt.Errorf("%w: %d labels for %d outputs", ErrOptions, len(a.Labels), a.Outputs)
	case a.FrameDuration < 0:
		return fmt.Errorf("%w: alignment FrameDuration %v is negative", ErrOptions, a.FrameDuration)
	case o.Width < 0 || o.Width > MaxWidth:
		return fmt.Errorf("%w: Width %d, want 1..%d (or 0 for the default)", ErrOptions, o.Width, MaxWidth)
	case o.RowHeight != 0 && (o.RowHeight < 2 || o.RowHeight > 64):
		return fmt.Errorf("%w: RowHeight %d, want 2..64 (or 0 for the default)", ErrOptions, o.RowHeight)
	}
	for i, v := range s.Data {
		if math.IsNaN(float64(v)) {
			return fmt.Errorf("%w: spectrogram value of frame %d, bin %d is NaN", ErrOptions, i/s.Bins, i%s.Bins)
		}
	}
	if o.Path != nil && len(o.Path) != a.Outputs {
		return fmt.Errorf("%w: a path of %d frames for %d outputs", ErrOptions, len(o.Path), a.Outputs)
	}
	for k, f := range o.Path {
		if f < -1 || f >= a.Frames {
			return fmt.Errorf("%w: Path[%d] = %d is outside the %d frames", ErrOptions, k, f, a.Frames)
		}
	}
	for k := range a.Outputs {
		row := a.Weights[k*a.Frames : (k+1)*a.Frames]
		if a.Posteriors {
			for f, v := range row {
				if !(v >= 0 && v <= 1+figure.WeightSumTolerance) {
					return fmt.Errorf("%w: posterior of output %d (%q) at frame %d is %v, want 0..1", ErrWeights, k, p.label(k), f, v)
				}
			}
			continue
		}
		if err := figure.CheckWeights(ErrWeights, row, 1, a.Frames, 1<<20); err != nil {
			return fmt.Errorf("%w, in alignment row %d (output %q)", err, k, p.label(k))
		}
	}
	return nil
}

// label returns output k's label as drawn.
func (p *alignPlot) label(k int) string {
	if p.al.Labels == nil {
		return strconv.Itoa(k)
	}
	return figure.VisibleLabel(p.al.Labels[k])
}

// layout sizes the figure:
//
//	title
//	[mel bin | ticks | spectrogram      | colorbar]
//	          time ticks
//	          encoder frame numbers
//	[output  | labels| alignment        | colorbar]
//	          time ticks
//	          axis caption
func (p *alignPlot) layout() {
	p.face, p.bold = figure.LabelFace(1, false), figure.LabelFace(1, true)
	lh := figure.LineHeight(p.face)
	const margin, gap = 12, 8
	width := p.o.Width
	if width == 0 {
		width = min(max(2*p.spec.Frames, 400), 1600)
	}
	p.rowH = p.o.RowHeight
	if p.rowH == 0 {
		p.rowH = min(16, max(2, 1200/p.al.Outputs))
	}
	labelW := figure.TextWidth(p.face, "000")
	for k := range p.al.Outputs {
		labelW = max(labelW, figure.TextWidth(p.face, p.label(k)))
	}
	labelW = min(labelW, 160)
	left := margin + lh + gap + labelW + gap
	left = max(left, margin+figure.TextWidth(p.face, "encoder frame")+gap) // caption of the frame numbers
	top := margin
	if p.o.Title != "" {
		top += lh + gap
	}
	if p.o.Note != "" {
		top += lh + gap/2
	}
	specH := min(max(2*p.spec.Bins, 80), 240)
	p.specRect = image.Rect(left, top, left+width, top+specH)
	alignTop := p.specRect.Max.Y + 6 + lh + gap + lh + 4 // time ticks, frame numbers
	p.alignRect = image.Rect(left, alignTop, left+width, alignTop+p.al.Outputs*p.rowH)
	p.plot = image.Rect(left, top, left+width, p.alignRect.Max.Y)
	right := p.plot.Max.X + gap + 12 + 4 + figure.TextWidth(p.face, "high") + margin
	p.width = max(right, left+figure.TextWidth(p.bold, p.o.Title)+margin, left+figure.TextWidth(p.face, p.o.Note)+margin) // the title starts at the plot's left edge
	p.height = p.alignRect.Max.Y + 6 + lh + 2*lh + margin
}

// xTime returns the time at the center of plot column x (relative to the
// plot's left edge).
func (p *alignPlot) xTime(x int) float64 {
	return (float64(x) + 0.5) / float64(p.plot.Dx()) * p.duration
}

// timeX returns the plot column of time t, relative to the left edge.
func (p *alignPlot) timeX(t float64) int {
	return min(int(t/p.duration*float64(p.plot.Dx())), p.plot.Dx()-1)
}

func (p *alignPlot) drawSpectrogram(dst *image.RGBA) {
	s := p.spec
	sorted := slices.Clone(s.Data)
	slices.Sort(sorted)
	lo, hi := sorted[len(sorted)/100], sorted[len(sorted)-1]
	if math.IsInf(float64(lo), -1) {
		lo = hi - 1
	}
	scale := float32(0)
	if hi > lo {
		scale = 1 / (hi - lo)
	}
	r := p.specRect
	h := r.Dy()
	for x := range r.Dx() {
		t := int(p.xTime(x) / p.shiftSec)
		for y := range h {
			px := r.Min.X + x
			py := r.Min.Y + y
			if t >= s.Frames {
				dst.SetRGBA(px, py, figure.Paper)
				continue
			}
			b := min((h-1-y)*s.Bins/h, s.Bins-1)
			dst.SetRGBA(px, py, p.o.SpecColormap.At((s.Data[t*s.Bins+b]-lo)*scale))
		}
	}
	figure.StrokeRect(dst, r.Inset(-1), 1, figure.FrameColor)
}

func (p *alignPlot) drawAlignment(dst *image.RGBA) {
	a := p.al
	var top float32 = 1
	if !p.o.Absolute && !a.Posteriors {
		top = slices.Max(a.Weights)
	}
	inv := float32(0)
	if top > 0 {
		inv = 1 / top
	}
	r := p.alignRect
	for x := range r.Dx() {
		f := int(p.xTime(x) / p.encSec)
		for k := range a.Outputs {
			c := figure.Paper
			if f < a.Frames {
				c = p.o.Colormap.At(a.Weights[k*a.Frames+f] * inv)
			}
			figure.FillRect(dst, image.Rect(r.Min.X+x, r.Min.Y+k*p.rowH, r.Min.X+x+1, r.Min.Y+(k+1)*p.rowH), c)
		}
	}
	for k, f := range p.o.Path {
		if f < 0 {
			continue
		}
		x0 := r.Min.X + p.timeX(float64(f)*p.encSec)
		x1 := max(r.Min.X+p.timeX(float64(f+1)*p.encSec), x0+3)
		box := image.Rect(x0, r.Min.Y+k*p.rowH, x1, r.Min.Y+(k+1)*p.rowH)
		figure.StrokeRect(dst, box, 1, figure.Paper)
	}
	figure.StrokeRect(dst, r.Inset(-1), 1, figure.FrameColor)
	p.drawColorbar(dst, r, p.o.Colormap, "0", figure.FormatWeight(top))
	p.drawColorbar(dst, p.specRect, p.o.SpecColormap, "low", "high")
}

// drawColorbar draws a vertical colorbar to the right of panel r with the
// given end labels.
func (p *alignPlot) drawColorbar(dst *image.RGBA, r image.Rectangle, cm *figure.Colormap, lo, hi string) {
	bar := image.Rect(r.Max.X+8, r.Min.Y, r.Max.X+20, r.Max.Y)
	figure.Colorbar(dst, bar, cm, true)
	figure.DrawLabel(dst, p.face, hi, bar.Max.X+4, bar.Min.Y+figure.Ascent(p.face)-3, figure.AlignLeft, figure.Muted)
	figure.DrawLabel(dst, p.face, lo, bar.Max.X+4, bar.Max.Y, figure.AlignLeft, figure.Muted)
}

func (p *alignPlot) drawBoundaries(dst *image.RGBA) {
	for _, b := range p.o.WordBoundaries {
		x := p.plot.Min.X + p.timeX(b.Seconds())
		figure.DashedVLine(dst, x, p.specRect.Min.Y, p.specRect.Max.Y, 4, figure.Paper)
		figure.DashedVLine(dst, x, p.alignRect.Min.Y, p.alignRect.Max.Y, 4, figure.Paper)
	}
}
