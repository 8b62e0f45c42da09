package plot

import (
	"fmt"
	"image"
	"math"
	"strconv"

	"github.com/attend-go/attend/internal/figure"
)

// drawAxes writes the title, tick marks, tick labels and axis captions of
// an alignment plot.
func (p *alignPlot) drawAxes(dst *image.RGBA) {
	face := p.face
	lh, asc := figure.LineHeight(face), figure.Ascent(face)
	noteY := 12 + asc
	if p.o.Title != "" {
		figure.DrawLabel(dst, p.bold, p.o.Title, p.plot.Min.X, 12+asc, figure.AlignLeft, figure.Ink)
		noteY += lh + 8
	}
	if p.o.Note != "" {
		figure.DrawLabel(dst, face, p.o.Note, p.plot.Min.X, noteY, figure.AlignLeft, figure.Warn)
	}
	axisX := 12 + lh // right edge of the rotated axis captions

	// Time ticks under both panels.
	step := niceStep(p.duration, p.plot.Dx(), 60)
	for _, r := range []image.Rectangle{p.specRect, p.alignRect} {
		for _, t := range ticks(p.duration, step) {
			x := p.plot.Min.X + p.timeX(t)
			figure.FillRect(dst, image.Rect(x, r.Max.Y+1, x+1, r.Max.Y+5), figure.Ink)
			figure.DrawLabel(dst, face, formatTick(t, step), x, r.Max.Y+5+asc, figure.AlignCenter, figure.Ink)
		}
	}
	below := p.alignRect.Max.Y + 5 + lh + asc
	figure.DrawLabel(dst, face, "time (s)", p.plot.Min.X+p.plot.Dx()/2, below, figure.AlignCenter, figure.Ink)
	figure.DrawLabel(dst, face, fmt.Sprintf("one spectrogram frame = %s, one encoder frame = %s",
		formatSeconds(p.shiftSec), formatSeconds(p.encSec)), p.plot.Min.X, below+lh, figure.AlignLeft, figure.Muted)

	// Encoder frame numbers along the top of the alignment.
	pxPerFrame := float64(p.plot.Dx()) * p.encSec / p.duration
	fstep := math.Max(1, niceStep(float64(p.al.Frames), int(pxPerFrame*float64(p.al.Frames)), 40))
	if fstep != math.Floor(fstep) {
		fstep *= 2 // 2.5 → 5: frame numbers are whole
	}
	numY := p.alignRect.Min.Y - 5
	for _, f := range ticks(float64(p.al.Frames-1), fstep) {
		x := p.plot.Min.X + p.timeX((f+0.5)*p.encSec)
		figure.FillRect(dst, image.Rect(x, p.alignRect.Min.Y-4, x+1, p.alignRect.Min.Y-1), figure.Muted)
		figure.DrawLabel(dst, face, strconv.Itoa(int(f)), x, numY-1, figure.AlignCenter, figure.Muted)
	}
	figure.DrawLabel(dst, face, "encoder frame", p.plot.Min.X-8, numY-1, figure.AlignRight, figure.Muted)

	// Spectrogram: bin numbers, low at the bottom.
	r := p.specRect
	figure.DrawLabel(dst, face, "0", r.Min.X-6, r.Max.Y, figure.AlignRight, figure.Ink)
	figure.DrawLabel(dst, face, strconv.Itoa(p.spec.Bins-1), r.Min.X-6, r.Min.Y+asc-3, figure.AlignRight, figure.Ink)
	figure.DrawLabelUp(dst, face, "mel bin", axisX, r.Min.Y+r.Dy()/2, figure.Ink)

	// Alignment: one label per row, or every few rows when rows are thin.
	r = p.alignRect
	every := p.labelEvery()
	labelW := r.Min.X - 8 - (axisX + 8)
	for k := 0; k < p.al.Outputs; k += every {
		y := r.Min.Y + k*p.rowH + p.rowH/2 + (asc-figure.Descent(face))/2
		figure.DrawLabel(dst, face, figure.Ellipsize(face, p.label(k), labelW), r.Min.X-6, y, figure.AlignRight, figure.Ink)
	}
	figure.DrawLabelUp(dst, face, figure.Ellipsize(face, p.outputCaption(), max(r.Dy(), figure.TextWidth(face, "output"))), axisX, r.Min.Y+r.Dy()/2, figure.Ink)
}

// formatSeconds writes a duration in milliseconds below a second.
func formatSeconds(s float64) string {
	if s < 1 {
		return strconv.FormatFloat(math.Round(s*1e5)/1e2, 'f', -1, 64) + " ms"
	}
	return strconv.FormatFloat(math.Round(s*1e3)/1e3, 'f', -1, 64) + " s"
}

// labelEvery is how many rows apart the output labels are: 1 when each
// row has room for its own.
func (p *alignPlot) labelEvery() int {
	return (figure.LineHeight(p.face) + p.rowH - 1) / p.rowH
}

// outputCaption names the outputs' axis, saying which are labelled when
// not all are.
func (p *alignPlot) outputCaption() string {
	caption := p.o.OutputCaption
	if caption == "" {
		caption = "output"
	}
	if every := p.labelEvery(); every > 1 {
		caption += fmt.Sprintf(" (every %s labelled)", ordinalWord(every))
	}
	return caption
}

// ordinalWord writes n as "2nd", "3rd", "11th", "21st".
func ordinalWord(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}
