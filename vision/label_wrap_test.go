package vision

import (
	"image"
	"strings"
	"testing"
)

// TestWrapWords: a caption wider than the figure wraps at spaces, every
// word kept, each line within the width; past the last line allowed, an
// ellipsis says the text goes on.
func TestWrapWords(t *testing.T) {
	face := labelFace(1, true)
	title := "a man in a red shirt is playing a football on a green field beside a dog"
	lines := wrapWords(face, title, 150, 8)
	if len(lines) < 2 || strings.Join(lines, " ") != title {
		t.Errorf("lines %q; want the whole title over several lines", lines)
	}
	for _, l := range lines {
		if textWidth(face, l) > 150 {
			t.Errorf("line %q is %d pixels wide, over 150", l, textWidth(face, l))
		}
	}
	if cut := wrapWords(face, title, 150, 2); len(cut) != 2 || !strings.HasSuffix(cut[1], "…") {
		t.Errorf("two lines: %q; want two, the last ending in an ellipsis", cut)
	}
	if one := wrapWords(face, "a dog", 150, 4); len(one) != 1 || one[0] != "a dog" {
		t.Errorf("short title: %q", one)
	}
}

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
