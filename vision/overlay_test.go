package vision

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/figure"
)

// oneHot returns a rows×cols distribution with all weight on one cell.
func oneHot(rows, cols int, c Cell) []float32 {
	w := make([]float32, rows*cols)
	w[c.Row*cols+c.Col] = 1
	return w
}

// uniformImage returns a w×h opaque image of one color.
func uniformImage(w, h int, c color.RGBA) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	figure.FillRect(m, m.Rect, c)
	return m
}

// brightest returns the bounding box of the pixels within 2% of the
// brightest, and the brightness-weighted centroid of the whole image.
func brightest(m *image.RGBA) (image.Rectangle, [2]float64) {
	return brightestWithin(m, 0.98)
}

// brightestWithin is brightest with the fraction of the maximum given.
func brightestWithin(m *image.RGBA, frac float64) (image.Rectangle, [2]float64) {
	var top uint8
	for i := 0; i < len(m.Pix); i += 4 {
		top = max(top, m.Pix[i])
	}
	var box image.Rectangle
	var sx, sy, sw float64
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
			v := m.RGBAAt(x, y).R
			if float64(v) >= frac*float64(top) {
				box = box.Union(image.Rect(x, y, x+1, y+1))
			}
			sx += float64(v) * (float64(x) + 0.5)
			sy += float64(v) * (float64(y) + 0.5)
			sw += float64(v)
		}
	}
	return box, [2]float64{sx / sw, sy / sw}
}

// TestOverlayOneHotLandsOnItsCell is the property the drawing exists for:
// all attention on cell (1, 2) of a 4×4 grid lights up that cell's
// rectangle of the original image, whatever the image's shape, the crop
// the model saw, the smoothing and the output size. The Mask at full
// strength over a white image makes the output's brightness the heat.
func TestOverlayOneHotLandsOnItsCell(t *testing.T) {
	cell := Cell{Row: 1, Col: 2}
	w := oneHot(4, 4, cell)
	for _, size := range []image.Point{{80, 60}, {60, 80}, {64, 64}, {203, 97}} {
		img := uniformImage(size.X, size.Y, color.RGBA{255, 255, 255, 255})
		for _, fit := range []struct {
			name string
			o    OverlayOptions
		}{
			{"CenterCrop", OverlayOptions{Fit: CenterCrop}},
			{"Squash", OverlayOptions{Fit: Squash}},
			{"CenterCrop0.75", OverlayOptions{Fit: CenterCrop, CropFraction: 0.75}},
			{"Region", OverlayOptions{Region: image.Rect(3, 7, 3+size.X/2, 7+size.Y/2)}},
		} {
			for _, s := range []Smoothing{SmoothBilinear, SmoothGaussian, SmoothNearest} {
				for _, outSize := range []int{0, 2 * max(size.X, size.Y)} {
					name := fmt.Sprintf("%dx%d/%s/%v/size%d", size.X, size.Y, fit.name, s, outSize)
					t.Run(name, func(t *testing.T) {
						o := fit.o
						o.Colormap, o.Alpha, o.Smoothing, o.Size = Mask, 1, s, outSize
						out, err := Overlay(img, w, 4, 4, &o)
						if err != nil {
							t.Fatal(err)
						}
						// The cell on the original image, scaled to the output.
						region := o.Region
						if region.Empty() {
							p, _ := NewPreprocessor(1, &PreprocessOptions{Fit: o.Fit, CropFraction: o.CropFraction})
							region = p.CropRect(img.Rect)
						}
						k := float64(out.Rect.Dx()) / float64(size.X)
						cw, ch := float64(region.Dx())/4, float64(region.Dy())/4
						x0 := (float64(region.Min.X) + float64(cell.Col)*cw) * k
						y0 := (float64(region.Min.Y) + float64(cell.Row)*ch) * k
						x1, y1 := x0+cw*k, y0+ch*k
						frac := 0.98
						if s == SmoothGaussian {
							frac = 1
						}
						box, c := brightestWithin(out, frac)
						if float64(box.Min.X) < x0-1 || float64(box.Max.X) > x1+1 || float64(box.Min.Y) < y0-1 || float64(box.Max.Y) > y1+1 {
							t.Errorf("brightest pixels %v, want inside the cell [%.1f, %.1f)×[%.1f, %.1f)", box, x0, x1, y0, y1)
						}
						// Unseen pixels (outside the region) are gray, so the
						// centroid test uses the heat inside the region only
						// when the region is the whole image.
						if s != SmoothGaussian && region == img.Rect && (c[0] < x0 || c[0] > x1 || c[1] < y0 || c[1] > y1) {
							t.Errorf("centroid of the heat (%.1f, %.1f), want inside the cell", c[0], c[1])
						}
					})
				}
			}
		}
	}
}

// TestOverlayAspect checks that outputs keep the input's aspect ratio.
func TestOverlayAspect(t *testing.T) {
	w := oneHot(7, 7, Cell{3, 3})
	for _, tc := range []struct {
		in         image.Point
		size       int
		overlay    image.Point // Overlay's output
		panelWidth image.Point // each panel of OverlayPanels
	}{
		{image.Pt(640, 480), 0, image.Pt(640, 480), image.Pt(224, 168)},
		{image.Pt(480, 640), 0, image.Pt(480, 640), image.Pt(168, 224)},
		{image.Pt(640, 480), 320, image.Pt(320, 240), image.Pt(320, 240)},
		{image.Pt(224, 224), 0, image.Pt(224, 224), image.Pt(224, 224)},
		{image.Pt(1000, 3), 100, image.Pt(100, 1), image.Pt(100, 1)},
	} {
		t.Run(fmt.Sprintf("%v/%d", tc.in, tc.size), func(t *testing.T) {
			img := uniformImage(tc.in.X, tc.in.Y, color.RGBA{90, 120, 150, 255})
			o := OverlayOptions{Size: tc.size}
			out, err := Overlay(img, w, 7, 7, &o)
			if err != nil {
				t.Fatal(err)
			}
			if got := out.Rect.Size(); got != tc.overlay {
				t.Errorf("Overlay size %v, want %v", got, tc.overlay)
			}
			po := PanelsOptions{OverlayOptions: o}
			ov, _, err := preparePanels(img, []Panel{{Word: "w", Weights: w}}, 7, 7, &po)
			if err != nil {
				t.Fatal(err)
			}
			if got := ov.base.Rect.Size(); got != tc.panelWidth {
				t.Errorf("panel size %v, want %v", got, tc.panelWidth)
			}
		})
	}
}

// TestOverlayUnseenIsGray checks that with CenterCrop the sides of a wide
// photo, which the model never saw, are drawn gray and the rest in color.
func TestOverlayUnseenIsGray(t *testing.T) {
	img := uniformImage(90, 30, color.RGBA{200, 40, 40, 255})
	out, err := Overlay(img, oneHot(2, 2, Cell{0, 0}), 2, 2, &OverlayOptions{Colormap: Mask, Fit: CenterCrop})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		x    int
		gray bool
	}{{0, true}, {29, true}, {30, false}, {59, false}, {60, true}, {89, true}} {
		c := out.RGBAAt(tc.x, 15)
		if isGray := c.R == c.G && c.G == c.B; isGray != tc.gray {
			t.Errorf("x=%d: %v, gray %v, want %v", tc.x, c, isGray, tc.gray)
		}
	}
}

// TestOverlayBoundsOrigin checks images whose bounds do not start at the
// origin (sub-images): the heat follows the image, not its coordinates.
func TestOverlayBoundsOrigin(t *testing.T) {
	big := uniformImage(200, 200, color.RGBA{255, 255, 255, 255})
	sub := big.SubImage(image.Rect(50, 70, 130, 130)) // 80×60
	out, err := Overlay(sub, oneHot(4, 4, Cell{3, 0}), 4, 4, &OverlayOptions{Colormap: Mask, Alpha: 1, Fit: Squash, Smoothing: SmoothNearest})
	if err != nil {
		t.Fatal(err)
	}
	if out.Rect != image.Rect(0, 0, 80, 60) {
		t.Fatalf("bounds %v, want (0,0)-(80,60)", out.Rect)
	}
	if box, _ := brightest(out); box != image.Rect(0, 45, 20, 60) {
		t.Errorf("brightest %v, want the bottom-left cell (0,45)-(20,60)", box)
	}
}

// TestOverlayTranslucent checks that alpha is composited over white.
func TestOverlayTranslucent(t *testing.T) {
	img := image.NewNRGBA(image.Rect(0, 0, 10, 10)) // fully transparent
	w := make([]float32, 4)
	for i := range w {
		w[i] = 0.25
	}
	out, err := Overlay(img, w, 2, 2, &OverlayOptions{Colormap: Mask, Fit: Squash})
	if err != nil {
		t.Fatal(err)
	}
	if c := out.RGBAAt(5, 5); c != (color.RGBA{255, 255, 255, 255}) {
		t.Errorf("uniform attention on a transparent image: %v, want white", c)
	}
}

func TestOverlayErrors(t *testing.T) {
	img := uniformImage(40, 30, color.RGBA{1, 2, 3, 255})
	good := oneHot(2, 2, Cell{0, 1})
	nan := []float32{float32(math.NaN()), 0.5, 0.5, 0}
	for _, tc := range []struct {
		name  string
		img   image.Image
		w     []float32
		opts  OverlayOptions
		is    error
		msg   string
		panel bool // only through OverlayPanels
	}{
		{"nil image", nil, good, OverlayOptions{}, ErrOptions, "nil image", false},
		{"empty image", image.NewRGBA(image.Rect(3, 3, 3, 9)), good, OverlayOptions{}, ErrDimensions, "empty", false},
		{"NaN weight", img, nan, OverlayOptions{}, ErrWeights, "cell (0, 0) is NaN", false},
		{"sum", img, []float32{0.5, 0.5, 0.5, 0.5}, OverlayOptions{}, ErrWeights, "sum to 2", false},
		{"count", img, good[:3], OverlayOptions{}, ErrWeights, "3 weights for a 2×2 grid", false},
		{"alpha", img, good, OverlayOptions{Alpha: 1.5}, ErrOptions, "Alpha 1.5", false},
		{"size", img, good, OverlayOptions{Size: -2}, ErrOptions, "Size -2", false},
		{"scale", img, good, OverlayOptions{Scale: 7}, ErrOptions, "HeatScale(7)", false},
		{"fit", img, good, OverlayOptions{Fit: 5}, ErrOptions, "Fit(5)", false},
		{"crop", img, good, OverlayOptions{CropFraction: 2}, ErrOptions, "CropFraction 2", false},
		{"region", img, good, OverlayOptions{Region: image.Rect(30, 0, 50, 10)}, ErrOptions, "not inside the image bounds", false},
		{"sigma", img, good, OverlayOptions{Sigma: 100}, ErrOptions, "Sigma 100", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Overlay(tc.img, tc.w, 2, 2, &tc.opts)
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("Overlay: error %v, want %v mentioning %q", err, tc.is, tc.msg)
			}
			_, err = OverlayPanels(tc.img, []Panel{{Word: "dog", Weights: tc.w}}, 2, 2, &PanelsOptions{OverlayOptions: tc.opts})
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("OverlayPanels: error %v, want %v mentioning %q", err, tc.is, tc.msg)
			}
		})
	}
}

func TestOverlayPanelsErrors(t *testing.T) {
	img := uniformImage(40, 30, color.RGBA{1, 2, 3, 255})
	good := oneHot(2, 2, Cell{0, 1})
	for _, tc := range []struct {
		name   string
		panels []Panel
		opts   PanelsOptions
		is     error
		msg    string
	}{
		{"names the panel", []Panel{{Word: "a", Weights: good}, {Word: "dog", Weights: []float32{1, 1, 0, 0}}}, PanelsOptions{}, ErrWeights, `panel 1 ("dog")`},
		{"marker", []Panel{{Word: "a", Weights: good, Marker: &Cell{2, 0}}}, PanelsOptions{}, ErrOptions, "Marker {Row:2 Col:0} outside the 2×2 grid"},
		{"beta", []Panel{{Word: "a", Weights: good, Beta: float32(math.Inf(-1))}}, PanelsOptions{}, ErrOptions, "Beta is -Inf"},
		{"sentinel", []Panel{{Word: "a", Weights: good, Sentinel: 1.5}}, PanelsOptions{ShowSentinel: true}, ErrOptions, "Sentinel is 1.5"},
		{"columns", []Panel{{Word: "a", Weights: good}}, PanelsOptions{Columns: -1}, ErrOptions, "Columns -1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := OverlayPanels(img, tc.panels, 2, 2, &tc.opts)
			if !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want %v mentioning %q", err, tc.is, tc.msg)
			}
		})
	}
}

// TestOverlayPanelsScale checks the three ways of choosing the top color
// on two words, one sharp and one diffuse.
func TestOverlayPanelsScale(t *testing.T) {
	img := uniformImage(40, 40, color.RGBA{255, 255, 255, 255})
	sharp := oneHot(2, 2, Cell{0, 0})
	diffuse := []float32{0.4, 0.2, 0.2, 0.2}
	panels := []Panel{{Word: "sharp", Weights: sharp}, {Word: "diffuse", Weights: diffuse}}
	for _, tc := range []struct {
		scale      HeatScale
		sharpMax   float32 // Heat.Max of each panel
		diffuseMax float32
		diffuseTop float32 // largest scaled value of the diffuse panel
	}{
		{ScalePanelMax, 1, 0.4, 1},
		{ScaleShared, 1, 1, 0.4},
		{ScaleAbsolute, 1, 1, 0.4},
	} {
		t.Run(tc.scale.String(), func(t *testing.T) {
			po := PanelsOptions{OverlayOptions: OverlayOptions{Scale: tc.scale, Fit: Squash, Smoothing: SmoothNearest, Size: 20}}
			_, heats, err := preparePanels(img, panels, 2, 2, &po)
			if err != nil {
				t.Fatal(err)
			}
			var top float32
			for _, v := range heats[1].Values {
				top = max(top, v)
			}
			if heats[0].Max != tc.sharpMax || heats[1].Max != tc.diffuseMax || math.Abs(float64(top-tc.diffuseTop)) > 1e-6 {
				t.Errorf("Max %v and %v, diffuse top %v; want %v, %v, %v", heats[0].Max, heats[1].Max, top, tc.sharpMax, tc.diffuseMax, tc.diffuseTop)
			}
		})
	}
}
