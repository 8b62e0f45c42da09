package vision

import (
	"fmt"
	"image"
	"math"

	"github.com/attend-go/attend/internal/figure"
	"golang.org/x/image/font"
)

// Cell names one cell of the attention grid: row Row, column Col, its
// weight at index Row·cols + Col.
type Cell struct{ Row, Col int }

// Panel is one generated word and the attention that produced it.
type Panel struct {
	// Word is drawn under the panel (shortened with "…" if too wide).
	Word string
	// Weights is the rows×cols attention distribution, row-major,
	// summing to 1 (see CheckWeights).
	Weights []float32
	// Beta is the gating scalar β of Show, Attend and Tell (§4.2.1): how
	// much of the attended context entered the word. NaN means none;
	// it is shown only with PanelsOptions.ShowBeta.
	Beta float32
	// Sentinel is adaptive attention's sentinel weight β ∈ [0, 1] (Lu et
	// al. 2017): the share of the word's context that came from the
	// decoder's own memory rather than the image. NaN means none; it is
	// shown only with PanelsOptions.ShowSentinel.
	Sentinel float32
	// Peak outlines the most attended cell with a dashed rectangle.
	Peak bool
	// Marker, if not nil, outlines one cell with a solid rectangle: the
	// location hard attention sampled (or its argmax).
	Marker *Cell
}

// DefaultColumns is the number of panels in a row of OverlayPanels,
// counting the input image.
const DefaultColumns = 5

// PanelsOptions configures OverlayPanels and OverlayGIF. A nil
// *PanelsOptions, or the zero value, means defaults; each field documents
// its own.
type PanelsOptions struct {
	// OverlayOptions draws each panel; its Size is the panel's long side
	// (0: DefaultPanelSize, 224).
	OverlayOptions

	// Columns is the number of panels per row, counting the input image
	// that comes first. Zero means DefaultColumns (5). OverlayGIF ignores
	// it.
	Columns int

	// ShowBeta writes each panel's β (when not NaN) next to its maximum
	// weight.
	ShowBeta bool

	// ShowSentinel writes each panel's sentinel weight (when not NaN) in
	// its label and draws a bar along the panel's foot filled to
	// 1 − sentinel: how much the word looked at the image.
	ShowSentinel bool

	// NoLegend leaves out the colorbar that says what the colors mean.
	NoLegend bool

	// Title, if not empty, is written above the panels (the caption, for
	// instance), shortened with "…" to the figure's width.
	Title string
}

// OverlayPanels draws the attention of each generated word over img: the
// input image first, then one panel per word, in rows of
// PanelsOptions.Columns, each with its word underneath, and a legend that
// says what the colors mean. Every panel keeps img's aspect ratio. The
// weights of each panel are a rows×cols grid placed as in Overlay.
//
// Under each panel, "max" is the panel's largest attention weight (and β
// its gate, with ShowBeta). With ScalePanelMax (the default) colors are
// relative to that maximum, so the legend reads "0 … panel max"; with
// ScaleShared and ScaleAbsolute it gives the number.
//
// A single word is a slice of one panel; no panels draws the input alone.
// Errors wrap ErrWeights, naming the panel, for bad weights, and
// ErrOptions or ErrDimensions for bad markers, image or options.
func OverlayPanels(img image.Image, panels []Panel, rows, cols int, opts *PanelsOptions) (*image.RGBA, error) {
	var o PanelsOptions
	if opts != nil {
		o = *opts
	}
	if o.Columns < 0 {
		return nil, fmt.Errorf("%w: Columns %d, want ≥ 1 (or 0 for %d)", ErrOptions, o.Columns, DefaultColumns)
	}
	if o.Columns == 0 {
		o.Columns = DefaultColumns
	}
	ov, heats, err := preparePanels(img, panels, rows, cols, &o)
	if err != nil {
		return nil, err
	}
	lay := newPanelLayout(ov, panels, heats, len(panels)+1, &o)
	dst := image.NewRGBA(image.Rect(0, 0, lay.width, lay.height))
	figure.FillRect(dst, dst.Rect, figure.Paper)
	lay.drawTitle(dst)
	for i := 0; i <= len(panels); i++ {
		at := lay.origin(i)
		if i == 0 {
			lay.drawInput(dst, at, rows, cols)
			continue
		}
		lay.drawPanel(dst, at, &panels[i-1], heats[i-1], rows, cols)
	}
	if !o.NoLegend && len(panels) > 0 {
		lay.drawLegend(dst, image.Pt(lay.margin, lay.legendTop))
	}
	return dst, nil
}

// preparePanels validates everything and computes every panel's field,
// scaled as o.Scale says.
func preparePanels(img image.Image, panels []Panel, rows, cols int, o *PanelsOptions) (*overlayer, []*Heat, error) {
	ov, err := newOverlayer(img, &o.OverlayOptions, DefaultPanelSize)
	if err != nil {
		return nil, nil, err
	}
	heats := make([]*Heat, len(panels))
	var shared float32
	for i := range panels {
		p := &panels[i]
		if m := p.Marker; m != nil && (m.Row < 0 || m.Row >= rows || m.Col < 0 || m.Col >= cols) {
			return nil, nil, fmt.Errorf("%w: panel %d (%q): Marker %+v outside the %d×%d grid", ErrOptions, i, p.Word, *m, rows, cols)
		}
		if b := float64(p.Beta); math.IsInf(b, 0) {
			return nil, nil, fmt.Errorf("%w: panel %d (%q): Beta is %v, want a finite value or NaN", ErrOptions, i, p.Word, p.Beta)
		}
		if s := float64(p.Sentinel); o.ShowSentinel && (s < 0 || s > 1) {
			return nil, nil, fmt.Errorf("%w: panel %d (%q): Sentinel is %v, want a value in [0, 1] or NaN", ErrOptions, i, p.Word, p.Sentinel)
		}
		h, err := ov.heat(p.Weights, rows, cols, 0)
		if err != nil {
			return nil, nil, &namedError{name: fmt.Sprintf("panel %d (%q)", i, p.Word), err: err}
		}
		heats[i] = h
		shared = max(shared, h.Peak)
	}
	if o.Scale == ScaleShared && shared > 0 {
		for _, h := range heats {
			f := h.Peak / shared
			for j, v := range h.Values {
				h.Values[j] = v * f
			}
			h.Max = shared
		}
	}
	return ov, heats, nil
}

// panelLayout places the tiles (image over two lines of text) of one
// figure.
type panelLayout struct {
	ov            *overlayer
	o             *PanelsOptions
	bold, regular font.Face
	pw, ph        int // panel image size
	gap, margin   int
	labelH        int // text under each panel
	columns       int
	top           int // y of the first row
	legendTop     int
	legend        []*legendItem
	title         []string // the title's lines, wrapped to the width
	scale         int      // text magnification
	width, height int
}

// minLegendWidth is the narrowest a figure with a legend gets.
const minLegendWidth = 300

func newPanelLayout(ov *overlayer, panels []Panel, heats []*Heat, tiles int, o *PanelsOptions) *panelLayout {
	pw, ph := ov.base.Rect.Dx(), ov.base.Rect.Dy()
	k := max(1, int(math.Round(float64(max(pw, ph))/448)))
	l := &panelLayout{
		ov: ov, o: o,
		bold: figure.LabelFace(k, true), regular: figure.LabelFace(k, false),
		pw: pw, ph: ph, gap: 10 * k, margin: 12 * k, scale: k,
		columns: max(1, min(o.Columns, tiles)),
	}
	l.labelH = 4*k + figure.LineHeight(l.bold) + figure.LineHeight(l.regular)
	rowsOfTiles := (tiles + l.columns - 1) / l.columns
	l.width = 2*l.margin + l.columns*pw + (l.columns-1)*l.gap
	l.top = l.margin
	if o.Title != "" {
		l.title = figure.WrapWords(l.bold, o.Title, l.width-2*l.margin, maxTitleLines)
		l.top += len(l.title)*figure.LineHeight(l.bold) + l.gap
	}
	l.legendTop = l.top + rowsOfTiles*(ph+l.labelH) + (rowsOfTiles-1)*l.gap + l.gap
	l.height = l.legendTop + l.margin
	if !o.NoLegend && tiles > 1 {
		l.width = max(l.width, 2*l.margin+minLegendWidth*k)
		lines := l.layoutLegend(panels, heats, l.width-2*l.margin)
		l.height += (lines-1)*l.legendPitch() + l.legendLineH()
	}
	return l
}

// maxTitleLines is the most lines a title wraps to; the last is
// ellipsized if the text goes on.
const maxTitleLines = 4

// drawTitle writes the title's lines above the tiles.
func (l *panelLayout) drawTitle(dst *image.RGBA) {
	for i, line := range l.title {
		figure.DrawLabel(dst, l.bold, line, l.margin, l.margin+figure.Ascent(l.bold)+i*figure.LineHeight(l.bold), figure.AlignLeft, figure.Ink)
	}
}

// origin returns the top-left corner of tile i.
func (l *panelLayout) origin(i int) image.Point {
	r, c := i/l.columns, i%l.columns
	return image.Pt(l.margin+c*(l.pw+l.gap), l.top+r*(l.ph+l.labelH+l.gap))
}

// drawInput draws the photo as the model saw it: faded outside the grid.
func (l *panelLayout) drawInput(dst *image.RGBA, at image.Point, rows, cols int) {
	r := image.Rectangle{Min: at, Max: at.Add(image.Pt(l.pw, l.ph))}
	sub := dst.SubImage(r).(*image.RGBA)
	region := l.ov.region.round()
	b := l.ov.base
	for y := range l.ph {
		for x := range l.pw {
			p := b.Pix[y*b.Stride+4*x : y*b.Stride+4*x+4]
			q := sub.Pix[y*sub.Stride+4*x : y*sub.Stride+4*x+4]
			if (image.Point{x, y}).In(region) {
				copy(q, p)
			} else {
				fadeUnseen(q, p)
			}
		}
	}
	l.outlineRegion(dst, at)
	fit := "squash"
	switch {
	case !l.o.Region.Empty():
		fit = "region"
	case l.o.Fit == CenterCrop && !region.Eq(b.Rect):
		fit = "crop"
	}
	l.drawCaption(dst, at, "input", fmt.Sprintf("%d×%d grid · %s", rows, cols, fit))
}

// drawPanel draws one word's heat over the photo, its markers and label.
func (l *panelLayout) drawPanel(dst *image.RGBA, at image.Point, p *Panel, h *Heat, rows, cols int) {
	r := image.Rectangle{Min: at, Max: at.Add(image.Pt(l.pw, l.ph))}
	sub := dst.SubImage(r).(*image.RGBA)
	l.ov.blend(sub, h)
	l.outlineRegion(dst, at)
	if p.Peak {
		best := 0
		for i, v := range p.Weights {
			if v > p.Weights[best] {
				best = i
			}
		}
		c := l.ov.cellRect(Cell{best / cols, best % cols}, rows, cols).Add(at)
		figure.DashedRect(dst, c, 2, 4, figure.Paper, figure.Ink)
	}
	if p.Marker != nil {
		c := l.ov.cellRect(*p.Marker, rows, cols).Add(at)
		figure.StrokeRect(dst, c, 1, figure.Ink)
		figure.StrokeRect(dst, c.Inset(1), 2, figure.Paper)
		figure.StrokeRect(dst, c.Inset(3), 1, figure.Ink)
	}
	var m float32
	for _, v := range p.Weights {
		m = max(m, v)
	}
	info := "max " + figure.FormatWeight(m)
	if l.o.ShowBeta && !math.IsNaN(float64(p.Beta)) {
		info += " · β " + figure.FormatWeight(p.Beta)
	}
	if l.o.ShowSentinel && !math.IsNaN(float64(p.Sentinel)) {
		// First, so that a narrow panel's ellipsis keeps it.
		info = "sentinel " + figure.FormatWeight(p.Sentinel) + " · " + info
		l.drawLookBar(dst, at, 1-p.Sentinel)
	}
	l.drawCaption(dst, at, p.Word, info)
}

// drawLookBar draws a bar along the foot of the panel at at, filled from
// the left to the fraction look ∈ [0, 1]: how much the word looked at the
// image (1 − its sentinel weight).
func (l *panelLayout) drawLookBar(dst *image.RGBA, at image.Point, look float32) {
	h := 6 * l.scale
	bar := image.Rect(at.X, at.Y+l.ph-h, at.X+l.pw, at.Y+l.ph)
	figure.FillRect(dst, bar, figure.Paper)
	figure.StrokeRect(dst, bar, 1, figure.FrameColor)
	fill := bar.Inset(l.scale)
	fill.Max.X = fill.Min.X + int(math.Round(float64(look)*float64(fill.Dx())))
	figure.FillRect(dst, fill, figure.Ink)
}

// outlineRegion draws a thin line around the grid's region on the panel at
// at, unless the grid covers the whole panel.
func (l *panelLayout) outlineRegion(dst *image.RGBA, at image.Point) {
	r := l.ov.region.round()
	if r.Eq(l.ov.base.Rect) {
		return
	}
	panel := l.ov.base.Rect.Add(at)
	figure.StrokeRect(dst, r.Add(at).Inset(-1).Intersect(panel), 1, figure.FrameColor)
}

// drawCaption writes the two lines under the tile at at.
func (l *panelLayout) drawCaption(dst *image.RGBA, at image.Point, word, info string) {
	cx := at.X + l.pw/2
	y := at.Y + l.ph + 2 + figure.Ascent(l.bold)
	figure.DrawLabel(dst, l.bold, figure.Ellipsize(l.bold, figure.VisibleLabel(word), l.pw), cx, y, figure.AlignCenter, figure.Ink)
	y += figure.Descent(l.bold) + figure.Ascent(l.regular)
	figure.DrawLabel(dst, l.regular, figure.Ellipsize(l.regular, info, l.pw), cx, y, figure.AlignCenter, figure.Muted)
}

// cellRect returns the rectangle of a grid cell on the panel.
func (ov *overlayer) cellRect(c Cell, rows, cols int) image.Rectangle {
	g := ov.region
	cw, ch := (g.x1-g.x0)/float64(cols), (g.y1-g.y0)/float64(rows)
	return heatRect{
		x0: g.x0 + float64(c.Col)*cw, y0: g.y0 + float64(c.Row)*ch,
		x1: g.x0 + float64(c.Col+1)*cw, y1: g.y0 + float64(c.Row+1)*ch,
	}.round()
}
