package captioning

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

func fixtureImage(name string) string { return filepath.Join(fixtureDir, "images", name+".png") }

func TestCaptionerCache(t *testing.T) {
	c, err := NewCaptioner(context.Background(), CaptionerOptions{Model: fixtureModel, Cache: fixtureCache, Beam: 3, Encoder: filepath.Join(t.TempDir(), "none.tflite")})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.Caption(fixtureImage("red-square"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Caption != "a red square" || !r.Cached || !r.Finished {
		t.Errorf("caption %q (cached %v, finished %v), want \"a red square\" from the cache", r.Caption, r.Cached, r.Finished)
	}
	if r.Contrast != nil || r.Labels != nil {
		t.Errorf("cached features: a contrast (%v), labels %v; want neither (no pixels were seen)", r.Contrast != nil, r.Labels)
	}
	if len(r.Attention) != 3 || len(r.Beta) != 3 || len(r.Tokens) != 3 || r.GridH*r.GridW != 49 {
		t.Fatalf("%d attention maps, %d gates, %d tokens, grid %d×%d; want 3, 3, 3, 7×7", len(r.Attention), len(r.Beta), len(r.Tokens), r.GridH, r.GridW)
	}
	for i, a := range r.Attention {
		var sum float64
		for _, w := range a {
			sum += float64(w)
		}
		if len(a) != 49 || math.Abs(sum-1) > 1e-4 {
			t.Errorf("word %d: %d weights summing to %v, want 49 summing to 1", i, len(a), sum)
		}
		if b := r.Beta[i]; !(b > 0 && b < 1) {
			t.Errorf("word %d: β = %v, want (0, 1)", i, b)
		}
	}
	if len(r.Alternatives) == 0 || len(r.Alternatives) > 3 || r.Alternatives[0].Caption != r.Caption {
		t.Errorf("alternatives %+v, want 1–3 starting with the caption", r.Alternatives)
	}
	// An image the cache lacks needs the encoder, which is missing here.
	_, err = c.Caption("-", strings.NewReader("not an image"))
	if err == nil || !strings.Contains(err.Error(), "standard input") {
		t.Errorf("stdin that is no image: %v, want an error naming standard input", err)
	}
	if _, err := c.Caption(filepath.Join(t.TempDir(), "gone.png"), nil); err == nil || !strings.Contains(err.Error(), "gone.png") {
		t.Errorf("missing file: %v, want an error naming it", err)
	}
}

func TestCaptionerOptions(t *testing.T) {
	tests := []struct {
		name string
		o    CaptionerOptions
		want string
	}{
		{"beam", CaptionerOptions{Model: fixtureModel, Beam: -1}, "beam width -1"},
		{"model", CaptionerOptions{Model: "nope.safetensors"}, "nope.safetensors"},
		{"cache", CaptionerOptions{Model: fixtureModel, Cache: "nope.safetensors"}, "nope.safetensors"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewCaptioner(context.Background(), tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want one naming %q", err, tc.want)
			}
		})
	}
}

// TestCaptionerEncoder runs the real encoder (from the shared data) on
// files and on standard input.
func TestCaptionerEncoder(t *testing.T) {
	encoder := shareddata.Path(t, shareddata.EncoderFile)
	if _, err := os.Stat(encoder); err != nil {
		t.Skipf("no encoder: %v", err)
	}
	c, err := NewCaptioner(context.Background(), CaptionerOptions{Model: fixtureModel, Encoder: encoder})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"red-square", "green-triangle"} {
		path := fixtureImage(name)
		r, err := c.Caption(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := "a " + strings.ReplaceAll(name, "-", " ")
		if r.Caption != want || r.Cached {
			t.Errorf("%s: %q (cached %v), want %q from the encoder", name, r.Caption, r.Cached, want)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := c.Caption("-", bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if s.Caption != r.Caption || s.LogProb != r.LogProb {
			t.Errorf("%s from stdin: %q %v, from the file: %q %v", name, s.Caption, s.LogProb, r.Caption, r.LogProb)
		}
		img, _, err := LoadImage(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		d, err := c.CaptionImage(img)
		if err != nil {
			t.Fatal(err)
		}
		if d.Caption != r.Caption || d.LogProb != r.LogProb {
			t.Errorf("%s decoded: %q %v, from the file: %q %v", name, d.Caption, d.LogProb, r.Caption, r.LogProb)
		}
		if r.Contrast == nil || *r.Contrast < LowContrast || r.Note() == UniformNote {
			t.Errorf("%s: contrast %v, note %q; want a shape on a background not taken for one colour", name, deref(r.Contrast), r.Note())
		}
	}
	// Pictures of one colour, or nearly: flagged whatever the decoder says.
	for _, tc := range []struct {
		name string
		img  image.Image
	}{
		{"grey", plainImage(300, 200, color.Gray{128})},
		{"a strip of one colour", plainImage(4000, 3, color.RGBA{20, 40, 200, 255})},
		{"transparent", image.NewNRGBA(image.Rect(0, 0, 64, 64))},
	} {
		r, err := c.CaptionImage(tc.img)
		if err != nil {
			t.Fatal(err)
		}
		if r.Contrast == nil || *r.Contrast >= LowContrast || !r.Low() || r.Note() != UniformNote {
			t.Errorf("%s: contrast %v, low %v, note %q; want under %v, flagged with UniformNote", tc.name, deref(r.Contrast), r.Low(), r.Note(), LowContrast)
		}
	}
}

// deref returns *p, or NaN for nil.
func deref(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// plainImage returns a w×h picture of colour c.
func plainImage(w, h int, c color.Color) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, c)
		}
	}
	return img
}

func ExampleCaptioner() {
	dir := filepath.Join("..", "..", "testdata", "caption")
	c, err := NewCaptioner(context.Background(), CaptionerOptions{
		Model: filepath.Join(dir, "tiny.safetensors"),
		Cache: filepath.Join(dir, "features-7x7.safetensors"), // these images need no encoder
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	r, err := c.Caption(filepath.Join(dir, "images", "blue-circle.png"), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Caption)
	fmt.Printf("%d words, %d attention weights each on a %d×%d grid\n", len(r.Words), len(r.Attention[0]), r.GridH, r.GridW)
	// Output:
	// a blue circle
	// 3 words, 49 attention weights each on a 7×7 grid
}

// TestDefaultModel checks that the embedded default decoder loads and
// reads the 7×7×1280 grid, and describes a fixture image through the
// encoder it needs (MobileNet-EdgeTPU, from the shared data; that part
// skips without it: the fixture cache holds MobileNetV2 features).
func TestDefaultModel(t *testing.T) {
	c, err := NewCaptioner(context.Background(), CaptionerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if cfg := c.Model.Config; cfg.Regions != 49 || cfg.FeatureDim != 1280 || cfg.Vocab < 1000 {
		t.Errorf("default model config %+v, want a 7×7×1280 grid and a Flickr8k vocabulary", cfg)
	}
	c, err = NewCaptioner(context.Background(), CaptionerOptions{Encoder: defaultEncoder(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.Caption(fixtureImage("blue-circle"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Words) == 0 || !r.Finished {
		t.Errorf("default model: %q (finished %v), want a finished caption", r.Caption, r.Finished)
	}
	t.Logf("default model: blue-circle.png: %q", r.Caption)
}
