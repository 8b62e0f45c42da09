package plot

import (
	"errors"
	"fmt"
	"image"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/attend-go/attend/internal/figure"
)

// TestAlignmentPlotSharedTimeAxis checks the plot's purpose: a sound at
// time t in the spectrogram and attention on the encoder frame holding t
// are drawn in the same columns, and a word boundary at t crosses both.
func TestAlignmentPlotSharedTimeAxis(t *testing.T) {
	const frames, bins, reduce = 200, 20, 4
	spec := Spectrogram{Frames: frames, Bins: bins, Data: make([]float32, frames*bins)}
	loud := [2]int{120, 124} // spectrogram frames 1.20 s … 1.24 s
	for f := loud[0]; f < loud[1]; f++ {
		for b := range bins {
			spec.Data[f*bins+b] = 10
		}
	}
	al := Alignment{Outputs: 3, Frames: frames / reduce, Labels: []string{"a", " ", "b"}}
	al.Weights = make([]float32, al.Outputs*al.Frames)
	for k := range al.Outputs {
		al.Weights[k*al.Frames+loud[0]/reduce] = 1 // encoder frame 30 = 1.20 s … 1.24 s
	}
	boundary := 1220 * time.Millisecond
	p, err := newAlignPlot(spec, al, &AlignmentOptions{Width: 400, WordBoundaries: []time.Duration{boundary}})
	if err != nil {
		t.Fatal(err)
	}
	m, err := AlignmentPlot(spec, al, &AlignmentOptions{Width: 400, WordBoundaries: []time.Duration{boundary}})
	if err != nil {
		t.Fatal(err)
	}
	if p.duration != 2 || p.encSec != 0.04 {
		t.Fatalf("duration %v s, encoder frame %v s; want 2 and 0.04", p.duration, p.encSec)
	}
	// Columns of the loud frames in the spectrogram (top colormap color)
	// and of the attended frame in the alignment (top color).
	hot := func(r image.Rectangle, cm *figure.Colormap) (lo, hi int) {
		lo, hi = -1, -1
		y := r.Min.Y + r.Dy()/2
		for x := r.Min.X; x < r.Max.X; x++ {
			if m.RGBAAt(x, y) == cm.At(1) {
				if lo < 0 {
					lo = x
				}
				hi = x
			}
		}
		return lo, hi
	}
	specLo, specHi := hot(p.specRect.Add(image.Pt(0, 2)), figure.Inferno) // below the boundary's first dash
	alLo, alHi := hot(p.alignRect, figure.Viridis)
	wantLo := p.plot.Min.X + int(1.20/2*400)
	wantHi := p.plot.Min.X + int(1.24/2*400) - 1
	for _, got := range [][2]int{{specLo, specHi}, {alLo, alHi}} {
		// The boundary's dashes may cover the hot column at x=244+plot.
		if got[0] != wantLo || got[1] != wantHi {
			t.Errorf("hot columns %d..%d, want %d..%d (spectrogram %d..%d, alignment %d..%d)",
				got[0], got[1], wantLo, wantHi, specLo, specHi, alLo, alHi)
		}
	}
	bx := p.plot.Min.X + p.timeX(boundary.Seconds())
	if bx != p.plot.Min.X+244 {
		t.Errorf("boundary at column %d, want %d", bx, p.plot.Min.X+244)
	}
	for _, y := range []int{p.specRect.Min.Y, p.alignRect.Min.Y} {
		if c := m.RGBAAt(bx, y); c != figure.Paper {
			t.Errorf("boundary at (%d, %d) is %v, want a white dash", bx, y, c)
		}
	}
}

func TestAlignmentPlotLongOutputs(t *testing.T) {
	al := Alignment{Outputs: 300, Frames: 10}
	al.Weights = make([]float32, 300*10)
	for k := range 300 {
		al.Weights[k*10+k%10] = 1
	}
	spec := Spectrogram{Frames: 40, Bins: 8, Data: make([]float32, 320)}
	p, err := newAlignPlot(spec, al, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.rowH != 4 || p.alignRect.Dy() != 1200 {
		t.Errorf("row height %d, matrix height %d; want 4 and 1200", p.rowH, p.alignRect.Dy())
	}
	if got, want := p.outputCaption(), fmt.Sprintf("output (every %s labelled)", ordinalWord(p.labelEvery())); p.labelEvery() < 2 || got != want {
		t.Errorf("caption %q of rows labelled every %d, want %q", got, p.labelEvery(), want)
	}
	if short, _ := newAlignPlot(spec, Alignment{Outputs: 2, Frames: 10, Weights: al.Weights[:20]}, &AlignmentOptions{OutputCaption: "character"}); short.outputCaption() != "character" {
		t.Errorf("caption of two rows %q, want %q", short.outputCaption(), "character")
	}
	if _, err := AlignmentPlot(spec, al, nil); err != nil {
		t.Fatal(err)
	}
}

func TestAlignmentPlotErrors(t *testing.T) {
	spec := Spectrogram{Frames: 10, Bins: 4, Data: make([]float32, 40)}
	al := Alignment{Outputs: 2, Frames: 5, Weights: []float32{1, 0, 0, 0, 0, 0, 0, 0, 0.5, 0.5}, Labels: []string{"h", "i"}}
	nanSpec := spec
	nanSpec.Data = make([]float32, 40)
	nanSpec.Data[13] = float32(math.NaN())
	badRow := al
	badRow.Weights = []float32{1, 0, 0, 0, 0, 0.5, 0, 0, 0, 0}
	for _, tc := range []struct {
		name string
		spec Spectrogram
		al   Alignment
		o    AlignmentOptions
		is   error
		msg  string
	}{
		{"spec shape", Spectrogram{Frames: 10, Bins: 4, Data: make([]float32, 39)}, al, AlignmentOptions{}, ErrOptions, "holds 39 values, want 40"},
		{"empty spec", Spectrogram{}, al, AlignmentOptions{}, ErrOptions, "0 frames × 0 bins"},
		{"spec NaN", nanSpec, al, AlignmentOptions{}, ErrOptions, "frame 3, bin 1 is NaN"},
		{"shift", Spectrogram{Frames: 10, Bins: 4, Data: make([]float32, 40), FrameShift: -1}, al, AlignmentOptions{}, ErrOptions, "FrameShift -1ns"},
		{"align shape", spec, Alignment{Outputs: 2, Frames: 5, Weights: make([]float32, 9)}, AlignmentOptions{}, ErrOptions, "holds 9 weights, want 10"},
		{"labels", spec, Alignment{Outputs: 2, Frames: 5, Weights: al.Weights, Labels: []string{"x"}}, AlignmentOptions{}, ErrOptions, "1 labels for 2 outputs"},
		{"row", spec, badRow, AlignmentOptions{}, ErrWeights, `alignment row 1 (output "i")`},
		{"boundary", spec, al, AlignmentOptions{WordBoundaries: []time.Duration{time.Second}}, ErrOptions, "WordBoundaries[0] = 1s is outside the audio (0..0.100s)"},
		{"width", spec, al, AlignmentOptions{Width: -3}, ErrOptions, "Width -3"},
		{"row height", spec, al, AlignmentOptions{RowHeight: 1}, ErrOptions, "RowHeight 1"},
		{"path length", spec, al, AlignmentOptions{Path: []int{0}}, ErrOptions, "a path of 1 frames for 2 outputs"},
		{"path frame", spec, al, AlignmentOptions{Path: []int{0, 5}}, ErrOptions, "Path[1] = 5 is outside the 5 frames"},
		{"posterior", spec, Alignment{Outputs: 2, Frames: 5, Weights: []float32{0, 0.2, 0.9, 0.9, 0, 0, 0, 1.5, 0, 0}, Posteriors: true, Labels: []string{"h", "i"}}, AlignmentOptions{}, ErrWeights, `posterior of output 1 ("i") at frame 2 is 1.5`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := AlignmentPlot(tc.spec, tc.al, &tc.o)
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want %v mentioning %q", err, tc.is, tc.msg)
			}
		})
	}
}

func TestNiceTicks(t *testing.T) {
	for _, tc := range []struct {
		span   float64
		pixels int
		step   float64
		labels []string
	}{
		{2, 400, 0.5, []string{"0.0", "0.5", "1.0", "1.5", "2.0"}},
		{1.5, 400, 0.25, []string{"0.00", "0.25", "0.50", "0.75", "1.00", "1.25", "1.50"}},
		{30, 600, 5, []string{"0", "5", "10", "15", "20", "25", "30"}},
		{0.3, 800, 0.025, []string{"0.000", "0.025", "0.050", "0.075", "0.100", "0.125", "0.150", "0.175", "0.200", "0.225", "0.250", "0.275", "0.300"}},
	} {
		step := niceStep(tc.span, tc.pixels, 60)
		if math.Abs(step-tc.step) > 1e-12 {
			t.Errorf("niceStep(%v, %d) = %v, want %v", tc.span, tc.pixels, step, tc.step)
			continue
		}
		if tc.labels == nil {
			continue
		}
		var got []string
		for _, v := range ticks(tc.span, step) {
			got = append(got, formatTick(v, step))
		}
		if strings.Join(got, " ") != strings.Join(tc.labels, " ") {
			t.Errorf("ticks over %v: %v, want %v", tc.span, got, tc.labels)
		}
	}
}

// TestAlignmentPlotLongTitle checks that a title wider than the plot
// widens the image instead of running off its right edge: the title's
// row has paper, not ink, in its last margin.
func TestAlignmentPlotLongTitle(t *testing.T) {
	spec := Spectrogram{Frames: 40, Bins: 8, Data: make([]float32, 320)}
	al := Alignment{Outputs: 2, Frames: 10, Weights: make([]float32, 20), Labels: []string{"h", "i"}}
	al.Weights[0], al.Weights[15] = 1, 1
	title := "/a/rather/long/path/to/some/recording/000260011.ogg  00:00.000-00:03.181  " + strings.Repeat(`"andy can see the hen" `, 4)
	opts := &AlignmentOptions{Width: 400, Title: title}
	p, err := newAlignPlot(spec, al, opts)
	if err != nil {
		t.Fatal(err)
	}
	m, err := AlignmentPlot(spec, al, opts)
	if err != nil {
		t.Fatal(err)
	}
	end := p.plot.Min.X + figure.TextWidth(p.bold, title)
	if end > m.Bounds().Dx()-12 {
		t.Fatalf("title ends at x=%d, image is %d wide", end, m.Bounds().Dx())
	}
	lh := figure.LineHeight(p.face)
	for y := 12; y < 12+lh; y++ {
		for x := m.Bounds().Dx() - 12; x < m.Bounds().Dx(); x++ {
			if c := m.RGBAAt(x, y); c != figure.Paper {
				t.Fatalf("ink %v at (%d, %d), in the right margin", c, x, y)
			}
		}
	}
}

// TestAlignmentPlotPosteriors draws rows that are per-frame posteriors,
// not distributions over frames, with a path and a note: the note is
// written in its red, and the path boxes its frames in white.
func TestAlignmentPlotPosteriors(t *testing.T) {
	spec := Spectrogram{Frames: 40, Bins: 8, Data: make([]float32, 320)}
	al := Alignment{Outputs: 2, Frames: 10, Posteriors: true, Labels: []string{"h", "i"}, Weights: []float32{
		0.9, 0.8, 0.1, 0, 0, 0, 0, 0, 0, 0,
		0, 0, 0, 0, 0, 0.3, 0.95, 0.2, 0, 0,
	}}
	o := &AlignmentOptions{Note: "CTC fallback", Path: []int{0, 6}}
	img, err := AlignmentPlot(spec, al, o)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := newAlignPlot(spec, al, o)
	red := 0
	for y := range p.specRect.Min.Y {
		for x := range img.Rect.Dx() {
			if img.RGBAAt(x, y) == figure.Warn {
				red++
			}
		}
	}
	if red == 0 {
		t.Error("no note above the panels")
	}
	r := p.alignRect
	x := r.Min.X + p.timeX(6*p.encSec)
	if got := img.RGBAAt(x, r.Min.Y+p.rowH+1); got != figure.Paper {
		t.Errorf("the path's box on frame 6 of row 1 is %v, want white", got)
	}
	if got := img.RGBAAt(x, r.Min.Y+1); got == figure.Paper {
		t.Error("row 0 is boxed on frame 6, which its path does not hold")
	}
}
