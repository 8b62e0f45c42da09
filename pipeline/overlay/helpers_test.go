package overlay

import (
	"flag"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/internal/goldenimage"
	"github.com/attend-go/attend/vision"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata")

// checkGolden compares m with testdata/name, or rewrites it with -update.
// A pixel differs when a channel is off by more than 8 levels; at most
// 0.05% may (floating-point contraction elsewhere can move a heat value
// across a colormap entry; text is exact).
func checkGolden(t *testing.T, name string, m *image.RGBA) {
	t.Helper()
	goldenimage.Check(t, filepath.Join("testdata", name), m, goldenimage.Tolerance{Levels: 8, Fraction: 0.0005}, *update, "-update")
}

// scene is a synthetic w×h photo: a sky-to-ground gradient with a red
// disk at the upper right and a blue square at the lower left, so
// misplaced heat is easy to see.
func scene(w, h int) *image.RGBA {
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

// white returns a w×h white image.
func white(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range m.Pix {
		m.Pix[i] = 255
	}
	return m
}

// peaked returns a seeded rows×cols softmax distribution whose logits
// peak around cell (r0, c0).
func peaked(rng *rand.Rand, rows, cols int, r0, c0 float64) []float32 {
	logits := make([]float64, rows*cols)
	var sum float64
	for r := range rows {
		for c := range cols {
			d := (float64(r)-r0)*(float64(r)-r0) + (float64(c)-c0)*(float64(c)-c0)
			logits[r*cols+c] = math.Exp(-d/2 + 0.3*rng.NormFloat64())
			sum += logits[r*cols+c]
		}
	}
	w := make([]float32, rows*cols)
	for i, l := range logits {
		w[i] = float32(l / sum)
	}
	return w
}

// oneHot returns a rows×cols distribution with all weight on cell k.
func oneHot(rows, cols, k int) []float32 {
	w := make([]float32, rows*cols)
	w[k] = 1
	return w
}

// testCaption is a seeded 4-word caption over a 3×4 grid.
func testCaption() *Caption {
	rng := rand.New(rand.NewPCG(1, 2))
	c := &Caption{
		Words: []string{"a", "red", "ball", "flies"},
		Rows:  3, Cols: 4,
		Beta: []float32{0.2, 0.9, 0.75, float32(math.NaN())},
		// The goldens were drawn with the grid over the central square.
		Fit: vision.CenterCrop,
	}
	for _, rc := range [][2]float64{{1, 1.5}, {0.8, 2.8}, {1, 2.6}, {2, 0.7}} {
		c.Attention = append(c.Attention, peaked(rng, 3, 4, rc[0], rc[1]))
	}
	return c
}
