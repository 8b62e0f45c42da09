package vision

import (
	"image"
)

// The legend is one line under the panels:
//
//	attention weight  0 [colorbar] panel max   [■] sampled cell  [▫] most attended
//
// saying which weight the colors span and what the cell outlines mean.

// legendBar is the colorbar's size in pixels at text scale 1.
const legendBarW, legendBarH = 200, 12

// legendItems returns the texts of the legend for the figure's options.
func (l *panelLayout) legendItems(heats []*Heat) (caption, lo, hi string) {
	caption = "attention weight"
	if l.ov.cmap.mask {
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
			hi = formatWeight(heats[0].Max)
		}
	default:
		hi = "panel max"
	}
	return caption, "0", hi
}

func (l *panelLayout) scale() int {
	return max(1, lineHeight(l.regular)/lineHeight(labelFace(1, false)))
}

func (l *panelLayout) legendHeight() int {
	return max(lineHeight(l.regular), legendBarH*l.scale()+4)
}

// legendWidth is an upper bound of the legend's width with every item.
func (l *panelLayout) legendWidth() int {
	k := l.scale()
	w := textWidth(l.regular, "brightness = attention weight (blurred)  0 ") + legendBarW*k +
		textWidth(l.regular, " panel max")
	return w + textWidth(l.regular, "    ■ sampled cell   ■ most attended cell") + 4*l.gap
}

// drawLegend draws the legend with its top-left corner at at.
func (l *panelLayout) drawLegend(dst *image.RGBA, at image.Point, panels []Panel, heats []*Heat) {
	k := l.scale()
	face := l.regular
	h := l.legendHeight()
	base := at.Y + (h+ascent(face)-descent(face))/2 // baseline, text centered on the bar
	caption, lo, hi := l.legendItems(heats)
	x := at.X
	drawLabel(dst, face, caption+"  "+lo, x, base, alignLeft, plotInk)
	x += textWidth(face, caption+"  "+lo) + 4*k
	bar := image.Rect(x, at.Y+(h-legendBarH*k)/2, x+legendBarW*k, at.Y+(h-legendBarH*k)/2+legendBarH*k)
	colorbar(dst, bar, l.ov.cmap, false)
	x = bar.Max.X + 4*k
	drawLabel(dst, face, hi, x, base, alignLeft, plotInk)
	x += textWidth(face, hi) + 3*l.gap

	var marker, peak bool
	for _, p := range panels {
		marker = marker || p.Marker != nil
		peak = peak || p.Peak
	}
	sw := lineHeight(face) - 2*k // swatch side
	swatch := func(text string, draw func(r image.Rectangle)) {
		r := image.Rect(x, at.Y+(h-sw)/2, x+sw, at.Y+(h-sw)/2+sw)
		fillRect(dst, r, l.ov.cmap.At(0.5))
		draw(r)
		x = r.Max.X + 4*k
		drawLabel(dst, face, text, x, base, alignLeft, plotInk)
		x += textWidth(face, text) + 2*l.gap
	}
	if marker {
		swatch("sampled cell", func(r image.Rectangle) {
			strokeRect(dst, r, 1, plotInk)
			strokeRect(dst, r.Inset(1), 2, plotPaper)
		})
	}
	if peak {
		swatch("most attended cell", func(r image.Rectangle) {
			dashedRect(dst, r, 2, 4, plotPaper, plotInk)
		})
	}
}
