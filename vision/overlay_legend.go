package vision

import (
	"image"
	"math"
	"slices"

	"github.com/attend-go/attend/internal/figure"
)

// The legend says which weights the colors span and what the cell
// outlines mean:
//
//	attention weight  0 [colorbar] panel max   [■] sampled cell   [▫] most attended cell   [▬▭] looked at the image
//
// Its items flow left to right and wrap onto more lines when the figure
// is narrow.

// legendBarW and legendBarH are the colorbar's size in pixels at text
// scale 1; a narrow figure shrinks the bar down to legendBarMinW.
const legendBarW, legendBarMinW, legendBarH = 200, 64, 12

// legendItem is one unbreakable piece of the legend.
type legendItem struct {
	width int
	draw  func(dst *image.RGBA, x, top int)
	at    image.Point // x and line top, set by layoutLegend
}

// legendTexts returns the caption and the colorbar's end labels.
func (l *panelLayout) legendTexts(heats []*Heat) (caption, lo, hi string) {
	caption = "attention weight"
	if l.ov.cmap.IsMask() {
		caption = "brightness = attention weight"
	}
	if l.o.Smoothing == SmoothGaussian {
		caption += " (blurred)"
	}
	switch l.o.Scale {
	case ScaleAbsolute:
		hi = "1"
	case ScaleShared:
		if len(heats) > 0 {
			hi = figure.FormatWeight(heats[0].Max)
		}
	default:
		hi = "panel max"
	}
	return caption, "0", hi
}

// layoutLegend builds the legend's items and places them in lines no
// wider than width, returning the number of lines.
func (l *panelLayout) layoutLegend(panels []Panel, heats []*Heat, width int) int {
	k := l.scale
	face := l.regular
	lh := l.legendLineH()
	caption, lo, hi := l.legendTexts(heats)
	baseline := func(top int) int { return top + (lh+figure.Ascent(face)-figure.Descent(face))/2 }

	// The bar: as wide as fits next to its labels, within its limits.
	labels := figure.TextWidth(face, lo) + figure.TextWidth(face, hi) + 8*k
	barW := min(legendBarW*k, max(legendBarMinW*k, width-labels))
	items := []*legendItem{
		{width: figure.TextWidth(face, caption), draw: func(dst *image.RGBA, x, top int) {
			figure.DrawLabel(dst, face, caption, x, baseline(top), figure.AlignLeft, figure.Ink)
		}},
		{width: labels + barW, draw: func(dst *image.RGBA, x, top int) {
			figure.DrawLabel(dst, face, lo, x, baseline(top), figure.AlignLeft, figure.Ink)
			x += figure.TextWidth(face, lo) + 4*k
			y := top + (lh-legendBarH*k)/2
			bar := image.Rect(x, y, x+barW, y+legendBarH*k)
			figure.Colorbar(dst, bar, l.ov.cmap, false)
			figure.DrawLabel(dst, face, hi, bar.Max.X+4*k, baseline(top), figure.AlignLeft, figure.Ink)
		}},
	}
	var marker, peak bool
	for _, p := range panels {
		marker = marker || p.Marker != nil
		peak = peak || p.Peak
	}
	sw := figure.LineHeight(face) - 2*k // swatch side
	swatch := func(text string, outline func(dst *image.RGBA, r image.Rectangle)) *legendItem {
		return &legendItem{width: sw + 4*k + figure.TextWidth(face, text), draw: func(dst *image.RGBA, x, top int) {
			r := image.Rect(x, top+(lh-sw)/2, x+sw, top+(lh-sw)/2+sw)
			figure.FillRect(dst, r, l.ov.cmap.At(0.5))
			outline(dst, r)
			figure.DrawLabel(dst, face, text, r.Max.X+4*k, baseline(top), figure.AlignLeft, figure.Ink)
		}}
	}
	if marker {
		items = append(items, swatch("sampled cell", func(dst *image.RGBA, r image.Rectangle) {
			figure.StrokeRect(dst, r, 1, figure.Ink)
			figure.StrokeRect(dst, r.Inset(1), 2, figure.Paper)
		}))
	}
	if peak {
		items = append(items, swatch("most attended cell", func(dst *image.RGBA, r image.Rectangle) {
			figure.DashedRect(dst, r, 2, 4, figure.Paper, figure.Ink)
		}))
	}
	if l.o.ShowSentinel && slices.ContainsFunc(panels, func(p Panel) bool { return !math.IsNaN(float64(p.Sentinel)) }) {
		// A half-filled look bar, as drawLookBar draws them.
		const text = "looked at the image (1 − sentinel)"
		bw := 3 * sw
		items = append(items, &legendItem{width: bw + 4*k + figure.TextWidth(face, text), draw: func(dst *image.RGBA, x, top int) {
			bar := image.Rect(x, top+(lh-6*k)/2, x+bw, top+(lh-6*k)/2+6*k)
			figure.StrokeRect(dst, bar, 1, figure.FrameColor)
			fill := bar.Inset(k)
			fill.Max.X = fill.Min.X + fill.Dx()/2
			figure.FillRect(dst, fill, figure.Ink)
			figure.DrawLabel(dst, face, text, bar.Max.X+4*k, baseline(top), figure.AlignLeft, figure.Ink)
		}})
	}
	sep := 2 * l.gap
	lines, x := 1, 0
	for i, it := range items {
		if i > 0 && x+sep+it.width > width {
			lines++
			x = 0
		} else if i > 0 {
			x += sep
		}
		it.at = image.Pt(x, (lines-1)*l.legendPitch())
		x += it.width
	}
	l.legend = items
	return lines
}

// legendLineH is the height of one legend line; legendPitch the distance
// between the tops of two lines.
func (l *panelLayout) legendLineH() int {
	return max(figure.LineHeight(l.regular), legendBarH*l.scale+4)
}

func (l *panelLayout) legendPitch() int { return l.legendLineH() + 4*l.scale }

// drawLegend draws the laid-out legend with its top-left corner at at.
func (l *panelLayout) drawLegend(dst *image.RGBA, at image.Point) {
	for _, it := range l.legend {
		it.draw(dst, at.X+it.at.X, at.Y+it.at.Y)
	}
}
