package vision

import (
	"image"
	"testing"
)

// TestGIFTitleWraps: a long caption makes the GIF's frames taller rather
// than being cut.
func TestGIFTitleWraps(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 120, 90))
	panels := []Panel{{Word: "dog", Weights: make([]float32, 49)}}
	panels[0].Weights[0] = 1
	height := func(title string) int {
		g, err := OverlayGIF(img, panels, 7, 7, &GIFOptions{PanelsOptions: PanelsOptions{Title: title, OverlayOptions: OverlayOptions{Size: 120}}})
		if err != nil {
			t.Fatal(err)
		}
		return g.Config.Height
	}
	if short, long := height("a dog"), height("a man in a red shirt is playing a football on a green field beside a dog"); long <= short {
		t.Errorf("frames %d pixels high with a long caption, %d with a short one; want the long one wrapped onto more lines", long, short)
	}
}
