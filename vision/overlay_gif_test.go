package vision

import (
	"bytes"
	"errors"
	"image"
	"image/color/palette"
	"image/gif"
	"strings"
	"testing"

	"golang.org/x/image/draw"
)

// meanError returns the mean absolute difference per channel between a
// full-color frame and its paletted version.
func meanError(a *image.RGBA, p *image.Paletted) float64 {
	var sum int
	for y := range a.Rect.Dy() {
		for x := range a.Rect.Dx() {
			c := a.RGBAAt(x, y)
			r, g, b, _ := p.At(x, y).RGBA()
			sum += absDiff(c.R, uint8(r>>8)) + absDiff(c.G, uint8(g>>8)) + absDiff(c.B, uint8(b>>8))
		}
	}
	return float64(sum) / float64(3*a.Rect.Dx()*a.Rect.Dy())
}

func TestOverlayGIF(t *testing.T) {
	img := testScene(160, 120)
	panels := goldenPanels()
	o := &GIFOptions{PanelsOptions: PanelsOptions{ShowBeta: true, Title: "a red disk", OverlayOptions: OverlayOptions{Size: 120}}, Delay: 80}
	g, err := OverlayGIF(img, panels, 7, 7, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != len(panels)+1 || len(g.Delay) != len(g.Image) {
		t.Fatalf("%d frames, %d delays; want %d each", len(g.Image), len(g.Delay), len(panels)+1)
	}
	pal := g.Image[0].Palette
	if len(pal) > 256 || len(pal) < 16 {
		t.Errorf("palette of %d colors", len(pal))
	}
	for i, f := range g.Image {
		if g.Delay[i] != 80 {
			t.Errorf("frame %d: delay %d, want 80", i, g.Delay[i])
		}
		if &f.Palette[0] != &pal[0] || f.Rect != g.Image[0].Rect {
			t.Errorf("frame %d does not share the first frame's palette and size", i)
		}
	}

	// Quality: the shared median-cut palette with dithering stays close
	// to the full-color frames, and closer than the fixed Plan 9 palette.
	frames, err := gifFrames(img, panels, 7, 7, o)
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range frames {
		plan9 := image.NewPaletted(f.Rect, palette.Plan9)
		draw.FloydSteinberg.Draw(plan9, plan9.Rect, f, image.Point{})
		ours, theirs := meanError(f, g.Image[i]), meanError(f, plan9)
		t.Logf("frame %d: mean error %.2f levels, Plan 9 palette %.2f", i, ours, theirs)
		if ours > 3 || ours >= theirs {
			t.Errorf("frame %d: mean error %.2f levels (Plan 9 palette: %.2f); want < 3 and better", i, ours, theirs)
		}
	}

	// It encodes, decodes, and is deterministic.
	var a, b bytes.Buffer
	if err := gif.EncodeAll(&a, g); err != nil {
		t.Fatal(err)
	}
	again, err := OverlayGIF(img, panels, 7, 7, o)
	if err != nil {
		t.Fatal(err)
	}
	if err := gif.EncodeAll(&b, again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two renderings of the same input differ")
	}
	back, err := gif.DecodeAll(&a)
	if err != nil || len(back.Image) != len(g.Image) || back.LoopCount != 0 {
		t.Errorf("decoded: err %v, %d frames, loop count %d", err, len(back.Image), back.LoopCount)
	}
}

func TestOverlayGIFOptions(t *testing.T) {
	img := testScene(40, 30)
	panels := goldenPanels()[:1]
	g, err := OverlayGIF(img, panels, 7, 7, &GIFOptions{NoInputFrame: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 1 || g.Delay[0] != DefaultGIFDelay {
		t.Errorf("%d frames, delay %v; want 1 frame of %d", len(g.Image), g.Delay, DefaultGIFDelay)
	}
	for _, tc := range []struct {
		name   string
		panels []Panel
		o      GIFOptions
		msg    string
	}{
		{"delay", panels, GIFOptions{Delay: -1}, "Delay -1"},
		{"nothing", nil, GIFOptions{NoInputFrame: true}, "no frames"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := OverlayGIF(img, tc.panels, 7, 7, &tc.o)
			if !errors.Is(err, ErrOptions) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %v, want ErrOptions mentioning %q", err, tc.msg)
			}
		})
	}
}
