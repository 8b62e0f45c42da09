package vision

import (
	"flag"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/internal/goldenimage"
)

var updateOverlay = flag.Bool("update-overlay", false, "rewrite the golden images in testdata/overlay")

// golden is the tolerance of the golden figures (goldenimage.Tolerance).
var golden = goldenimage.Tolerance{Levels: 8, Fraction: 0.0001}

// checkGolden compares m with testdata/overlay/name, or rewrites it with
// -update-overlay.
func checkGolden(t *testing.T, name string, m *image.RGBA) {
	t.Helper()
	goldenimage.Check(t, filepath.Join("testdata", "overlay", name), m, golden, *updateOverlay, "-update-overlay")
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

// testScene is a synthetic w×h photo: a sky-to-ground gradient, a red
// disk at the upper right and a blue square at the lower left, so that
// misplaced heat is easy to see.
func testScene(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			t := float64(y) / float64(h)
			c := color.RGBA{uint8(120 + 80*t), uint8(170 - 40*t), uint8(220 - 150*t), 255}
			dx, dy := float64(x)-0.7*float64(w), float64(y)-0.3*float64(h)
			if dx*dx+dy*dy < math.Pow(0.12*float64(w), 2) {
				c = color.RGBA{220, 40, 30, 255}
			}
			if x > w/8 && x < w/8+w/5 && y > h*6/10 && y < h*6/10+w/5 {
				c = color.RGBA{30, 60, 200, 255}
			}
			m.SetRGBA(x, y, c)
		}
	}
	return m
}

// softmaxWeights returns a seeded rows×cols attention distribution whose
// logits peak around cell (r0, c0).
func softmaxWeights(rng *rand.Rand, rows, cols int, r0, c0 float64) []float32 {
	w := make([]float32, rows*cols)
	var sum float64
	logits := make([]float64, rows*cols)
	for r := range rows {
		for c := range cols {
			d := (float64(r)-r0)*(float64(r)-r0) + (float64(c)-c0)*(float64(c)-c0)
			logits[r*cols+c] = -d/2 + 0.5*rng.NormFloat64()
		}
	}
	for i, l := range logits {
		v := math.Exp(l)
		logits[i] = v
		sum += v
	}
	for i, v := range logits {
		w[i] = float32(v / sum)
	}
	return w
}

func TestGoldenOverlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 1))
	img := testScene(96, 72)
	w := softmaxWeights(rng, 7, 7, 2, 5) // on the red disk
	for _, tc := range []struct {
		name string
		o    OverlayOptions
	}{
		{"overlay_turbo_bilinear_squash.png", OverlayOptions{Colormap: Turbo, Fit: Squash}},
		{"overlay_viridis_nearest_constant.png", OverlayOptions{Colormap: Viridis, Smoothing: SmoothNearest, ConstantAlpha: true, Fit: Squash}},
		{"overlay_mask_gaussian_crop.png", OverlayOptions{Colormap: Mask, Smoothing: SmoothGaussian, Size: 192, Fit: CenterCrop}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Overlay(img, w, 7, 7, &tc.o)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.name, m)
		})
	}
}

// goldenPanels returns three words over testScene: on the disk (with its
// peak outlined), on the square (with a hard-attention marker) and spread
// out.
func goldenPanels() []Panel {
	rng := rand.New(rand.NewPCG(6, 2))
	diffuse := softmaxWeights(rng, 7, 7, 3, 3)
	for i := range diffuse {
		diffuse[i] = 0.3*diffuse[i] + 0.7/49
	}
	return []Panel{
		{Word: "red", Weights: softmaxWeights(rng, 7, 7, 2, 5), Beta: 0.81, Peak: true},
		{Word: "square", Weights: softmaxWeights(rng, 7, 7, 5, 1.5), Beta: 0.64, Marker: &Cell{5, 1}},
		{Word: "the", Weights: diffuse, Beta: float32(math.NaN())},
	}
}

func TestGoldenPanels(t *testing.T) {
	img := testScene(128, 96)
	for _, tc := range []struct {
		name string
		o    PanelsOptions
	}{
		{"panels_turbo.png", PanelsOptions{OverlayOptions: OverlayOptions{Colormap: Turbo}, Columns: 2, ShowBeta: true, Title: "a red disk over a blue square"}},
		{"panels_mask_crop_shared.png", PanelsOptions{OverlayOptions: OverlayOptions{Colormap: Mask, Smoothing: SmoothGaussian, Scale: ScaleShared, Size: 112, Fit: CenterCrop}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tc.o
			m, err := OverlayPanels(img, goldenPanels(), 7, 7, &o)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, tc.name, m)
		})
	}
}

// TestGoldenDetectsChange makes sure the comparison is not vacuous: a
// shifted heat or a different word fails it.
func TestGoldenDetectsChange(t *testing.T) {
	img := testScene(128, 96)
	panels := goldenPanels()
	o := PanelsOptions{Columns: 2, ShowBeta: true, Title: "a red disk over a blue square", OverlayOptions: OverlayOptions{Fit: Squash}}
	base, err := OverlayPanels(img, panels, 7, 7, &o)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(p []Panel)
	}{
		{"word", func(p []Panel) { p[0].Word = "rod" }},
		{"weights", func(p []Panel) { p[1].Weights = oneHot(7, 7, Cell{5, 2}) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := goldenPanels()
			tc.change(p)
			m, err := OverlayPanels(img, p, 7, 7, &o)
			if err != nil {
				t.Fatal(err)
			}
			if golden.Match(m, base) {
				n, _ := goldenimage.Diff(m, base, golden.Levels)
				t.Errorf("changing the %s moved %d pixels, which the golden tolerance accepts", tc.name, n)
			}
		})
	}
}
