package overlay

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/vision"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata")

// Golden comparison tolerance, as in package vision: a pixel differs when
// a channel is off by more than goldenLevels, and at most goldenFraction
// of the pixels may differ (floating-point contraction elsewhere can move
// a heat value across a colormap entry; text is exact).
const (
	goldenLevels   = 8
	goldenFraction = 0.0005
)

// checkGolden compares m with testdata/name, or rewrites it with -update.
// On a mismatch it keeps the image it got and says where.
func checkGolden(t *testing.T, name string, m *image.RGBA) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		writePNG(t, path, m)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	n, worst := goldenDiff(m, want)
	if n < 0 || float64(n) > goldenFraction*float64(m.Rect.Dx()*m.Rect.Dy()) {
		got := filepath.Join(t.TempDir(), name)
		writePNG(t, got, m)
		if n < 0 {
			t.Fatalf("%s: size %v, golden %v (got: %s)", name, m.Rect.Size(), want.Bounds().Size(), got)
		}
		t.Fatalf("%s: %d pixels differ by more than %d levels (worst %d); got image kept in %s", name, n, goldenLevels, worst, got)
	}
}

func writePNG(t *testing.T, path string, m image.Image) {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// goldenDiff counts the pixels that differ by more than goldenLevels and
// the largest difference; -1 if the sizes differ.
func goldenDiff(got *image.RGBA, want image.Image) (int, int) {
	if got.Rect.Size() != want.Bounds().Size() {
		return -1, 0
	}
	n, worst := 0, 0
	wb := want.Bounds()
	for y := range got.Rect.Dy() {
		for x := range got.Rect.Dx() {
			a := got.RGBAAt(got.Rect.Min.X+x, got.Rect.Min.Y+y)
			b := color.RGBAModel.Convert(want.At(wb.Min.X+x, wb.Min.Y+y)).(color.RGBA)
			d := max(absDiff(a.R, b.R), absDiff(a.G, b.G), absDiff(a.B, b.B), absDiff(a.A, b.A))
			worst = max(worst, d)
			if d > goldenLevels {
				n++
			}
		}
	}
	return n, worst
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
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
