package overlay

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"image/png"
	"math"
	"testing"

	"github.com/attend-go/attend/vision"
)

// goldenOptions are the figures kept in testdata: small, so a change in
// the drawing shows in a reviewable image.
var goldenOptions = []struct {
	name     string
	hard     bool
	sentinel bool // adaptive attention: the sentinel weights
	opts     Options
}{
	{name: "figure.png", opts: Options{Size: 96, Columns: 3}},
	{name: "figure-hard-mask.png", hard: true, opts: Options{Size: 96, Colormap: vision.Mask, Smoothing: vision.SmoothGaussian, Beta: true, Peak: true}},
	{name: "figure-sentinel.png", sentinel: true, opts: Options{Size: 150, Columns: 5}},
	{name: "figure-selected-viridis.png", opts: Options{Size: 80, Colormap: vision.Viridis, Words: []int{1, 2}, Scale: vision.ScaleShared, Title: "two words"}},
}

func TestGoldenFigures(t *testing.T) {
	for _, g := range goldenOptions {
		t.Run(g.name, func(t *testing.T) {
			c := testCaption()
			if g.hard {
				c.Hard, c.Cells = true, []int{5, 3, 6, 8}
			}
			if g.sentinel {
				c.Beta, c.Sentinel = nil, []float32{0.93, 0.35, 0.08, 0.6}
			}
			m, err := Render(scene(90, 60), c, &g.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, g.name, m)
		})
	}
}

// TestGoldenGIF compares every frame of an animation with a golden strip.
func TestGoldenGIF(t *testing.T) {
	c := testCaption()
	g, err := RenderGIF(scene(60, 90), c, &Options{Size: 72, Peak: true, Delay: 40})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 1+len(c.Words) {
		t.Fatalf("%d frames, want %d", len(g.Image), 1+len(c.Words))
	}
	for i, d := range g.Delay {
		if d != 40 {
			t.Fatalf("frame %d delay %d", i, d)
		}
	}
	fw, fh := g.Config.Width, g.Config.Height
	strip := image.NewRGBA(image.Rect(0, 0, fw*len(g.Image), fh))
	for i, f := range g.Image {
		draw.Draw(strip, f.Rect.Add(image.Pt(i*fw, 0)), f, f.Rect.Min, draw.Src)
	}
	checkGolden(t, "animation-frames.png", strip)
}

// maskedFigure draws one word of c with the brightness mask at full
// strength over a white image, nearest smoothing, no title or legend: the
// only pure black pixels of the figure are the panel's unattended cells.
func maskedFigure(t *testing.T, img image.Image, c *Caption, word int, size int, fit vision.Fit) *image.RGBA {
	t.Helper()
	c.Fit = fit
	m, err := Render(img, c, &Options{
		Words: []int{word}, Colormap: vision.Mask, Alpha: 1, Smoothing: vision.SmoothNearest,
		Size: size, NoTitle: true, NoLegend: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// blackBox returns the bounding box of the pure black pixels and of the
// white pixels inside it.
func blackBox(m *image.RGBA) (black, lit image.Rectangle) {
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
			if p := m.RGBAAt(x, y); p.R == 0 && p.G == 0 && p.B == 0 {
				black = black.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	for y := black.Min.Y; y < black.Max.Y; y++ {
		for x := black.Min.X; x < black.Max.X; x++ {
			if p := m.RGBAAt(x, y); p.R == 255 && p.G == 255 && p.B == 255 {
				lit = lit.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return black, lit
}

// TestOneHotLightsItsCell is the property the figures exist for: all
// attention on one cell lights exactly that cell's part of the panel, and
// nothing else of the grid's region, for grids, cells and image shapes.
func TestOneHotLightsItsCell(t *testing.T) {
	tests := []struct {
		w, h, rows, cols, cell, size int
	}{
		{w: 120, h: 120, rows: 4, cols: 4, cell: 6, size: 120},
		{w: 120, h: 120, rows: 7, cols: 7, cell: 0, size: 140},
		{w: 200, h: 100, rows: 2, cols: 5, cell: 9, size: 200},
		{w: 90, h: 150, rows: 3, cols: 3, cell: 4, size: 150},
		{w: 300, h: 200, rows: 14, cols: 14, cell: 14*9 + 3, size: 280},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%dx%d_%dx%d_cell%d", tc.w, tc.h, tc.rows, tc.cols, tc.cell), func(t *testing.T) {
			c := &Caption{Words: []string{"x", "here"}, Rows: tc.rows, Cols: tc.cols,
				Attention: [][]float32{oneHot(tc.rows, tc.cols, 0), oneHot(tc.rows, tc.cols, tc.cell)}}
			m := maskedFigure(t, white(tc.w, tc.h), c, 1, tc.size, vision.Squash)
			black, lit := blackBox(m)
			// With Squash the grid covers the whole panel.
			pw, ph := tc.size, int(math.Round(float64(tc.size*tc.h)/float64(tc.w)))
			if tc.h > tc.w {
				pw, ph = int(math.Round(float64(tc.size*tc.w)/float64(tc.h))), tc.size
			}
			if black.Dx() != pw || black.Dy() != ph {
				t.Fatalf("grid region %v, want %d×%d (the image's aspect ratio)", black, pw, ph)
			}
			r, col := tc.cell/tc.cols, tc.cell%tc.cols
			cw, ch := float64(pw)/float64(tc.cols), float64(ph)/float64(tc.rows)
			want := image.Rect(int(float64(col)*cw+0.5), int(float64(r)*ch+0.5), int(float64(col+1)*cw+0.5), int(float64(r+1)*ch+0.5)).Add(black.Min)
			if d := max(abs(lit.Min.X-want.Min.X), abs(lit.Min.Y-want.Min.Y), abs(lit.Max.X-want.Max.X), abs(lit.Max.Y-want.Max.Y)); d > 1 {
				t.Errorf("lit %v, want cell %d at %v", lit, tc.cell, want)
			}
			// Exactly that cell: every pixel of it is white, every other
			// pixel of the region black.
			for y := black.Min.Y; y < black.Max.Y; y++ {
				for x := black.Min.X; x < black.Max.X; x++ {
					p := m.RGBAAt(x, y)
					in := image.Pt(x, y).In(lit)
					if in && p.R != 255 || !in && p.R != 0 {
						t.Fatalf("pixel (%d, %d) = %v, lit region %v", x, y, p, lit)
					}
				}
			}
		})
	}
}

// TestCenterCropGridOnCentralSquare checks the placement of the default
// fit: over a landscape photo the grid covers the central square only.
func TestCenterCropGridOnCentralSquare(t *testing.T) {
	c := &Caption{Words: []string{"x"}, Rows: 2, Cols: 2, Attention: [][]float32{oneHot(2, 2, 3)}}
	m := maskedFigure(t, white(300, 200), c, 0, 150, vision.CenterCrop)
	black, lit := blackBox(m)
	// The panel is 150×100; its central square is 100×100, from x = 25.
	// A frame marks the square's sides; where it meets the panel's top
	// and bottom it covers the square's first and last rows.
	if black.Dx() != 100 || black.Dy() != 98 {
		t.Fatalf("grid region %v, want 100×100 less its framed top and bottom rows", black)
	}
	top := black.Min.Y - 1
	if lit != image.Rect(black.Min.X+50, top+50, black.Max.X, black.Max.Y) {
		t.Errorf("lit %v in region %v, want its lower right quarter", lit, black)
	}
}

// TestFigureFollowsAspectRatio: the figure's size follows the photo's
// shape (tiles keep its aspect ratio) and the layout wraps to rows.
func TestFigureFollowsAspectRatio(t *testing.T) {
	c := testCaption()
	size := func(w, h int, o Options) image.Point {
		m, err := Render(scene(w, h), c, &o)
		if err != nil {
			t.Fatal(err)
		}
		return m.Rect.Size()
	}
	wide := size(200, 100, Options{Size: 100, Columns: 5, NoLegend: true})
	tall := size(100, 200, Options{Size: 100, Columns: 5, NoLegend: true})
	if !(wide.X < tall.X*2 && wide.Y < tall.Y) {
		t.Errorf("landscape figure %v, portrait %v: want the portrait one taller", wide, tall)
	}
	if tall.Y-wide.Y != 50 {
		t.Errorf("one row of portrait tiles is %d px taller than landscape, want 50", tall.Y-wide.Y)
	}
	oneRow := size(100, 100, Options{Size: 100, Columns: 5})
	twoRows := size(100, 100, Options{Size: 100, Columns: 3})
	if !(twoRows.Y > oneRow.Y+100 && twoRows.X < oneRow.X) {
		t.Errorf("5 tiles in rows of 5: %v, of 3: %v", oneRow, twoRows)
	}
}

func TestRenderErrors(t *testing.T) {
	tests := []struct {
		name   string
		modify func(c *Caption, o *Options)
		is     error
		want   string
	}{
		{name: "no such word", modify: func(c *Caption, o *Options) { o.Words = []int{7} }, is: ErrWord, want: "word 8 of the 4-word caption"},
		{name: "no such word by selection", modify: func(c *Caption, o *Options) { o.Select = "ball,cat" }, is: ErrWord, want: `"cat" is not in the 4-word caption`},
		{name: "selection and indexes", modify: func(c *Caption, o *Options) { o.Select, o.Words = "1", []int{0} }, is: ErrOptions, want: "both Words and Select"},
		{name: "bad weights", modify: func(c *Caption, o *Options) { c.Attention[3][0] = -1 }, is: ErrCaption, want: `word 4 ("flies")`},
		{name: "bad format", modify: func(c *Caption, o *Options) { o.Format = "tiff" }, is: ErrOptions, want: `unknown format "tiff"`},
		{name: "bad size", modify: func(c *Caption, o *Options) { o.Size = -3 }, is: vision.ErrOptions, want: "Size -3"},
		{name: "bad alpha", modify: func(c *Caption, o *Options) { o.Alpha = 2 }, is: vision.ErrOptions, want: "Alpha 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, f := range Formats {
				c, o := testCaption(), Options{Format: f}
				tc.modify(c, &o)
				err := Encode(&bytes.Buffer{}, scene(30, 20), c, &o)
				if !errors.Is(err, tc.is) || !contains(err, tc.want) {
					t.Errorf("%s: %v, want %v containing %q", f, err, tc.is, tc.want)
				}
			}
		})
	}
}

// TestEncodeRecordsCaption: the files decode, carry the caption and the
// marker Dir looks for.
func TestEncodeRecordsCaption(t *testing.T) {
	c := testCaption()
	c.Words[1] = "rouge…" // UTF-8 survives iTXt
	for _, f := range Formats {
		var b bytes.Buffer
		if err := Encode(&b, scene(40, 30), c, &Options{Format: f, Size: 40}); err != nil {
			t.Fatal(err)
		}
		data := b.Bytes()
		if !IsFigure(data) {
			t.Errorf("%s: marker not found", f)
		}
		if !bytes.Contains(data, []byte(c.Text())) {
			t.Errorf("%s: caption %q not recorded", f, c.Text())
		}
		switch f {
		case PNG:
			if _, err := png.Decode(bytes.NewReader(data)); err != nil {
				t.Errorf("png: %v", err)
			}
		case GIF:
			g, err := gif.DecodeAll(bytes.NewReader(data))
			if err != nil || len(g.Image) != 5 {
				t.Errorf("gif: %v", err)
			}
		}
	}
	if IsFigure(nil) || IsFigure([]byte("GIF89a")) || IsFigure(pngSignature) {
		t.Error("short heads taken for figures")
	}
}

func contains(err error, s string) bool {
	return err != nil && bytes.Contains([]byte(err.Error()), []byte(s))
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// TestSelectDrawsTheSameAsWords: a selection draws what its indexes draw.
func TestSelectDrawsTheSameAsWords(t *testing.T) {
	a, err := Render(scene(40, 30), testCaption(), &Options{Size: 40, Select: "flies,2"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Render(scene(40, 30), testCaption(), &Options{Size: 40, Words: []int{1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Pix, b.Pix) {
		t.Error("Select \"flies,2\" and Words [1 3] draw different figures")
	}
}
