package figure

import (
	"image"
	"testing"

	"golang.org/x/image/math/fixed"
)

var fixedZero fixed.Point26_6

// inkBox returns the bounding box of the non-white pixels of m.
func inkBox(m *image.RGBA) image.Rectangle {
	var r image.Rectangle
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
			if m.RGBAAt(x, y) != Paper {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return r
}

func TestLabelGlyphs(t *testing.T) {
	face := LabelFace(1, false)
	for _, tc := range []struct {
		text      string
		width     int
		inkHeight [2]int // min, max rows of ink
	}{
		{"b", 8, [2]int{9, 12}},
		{"β", 8, [2]int{11, 14}}, // drawn here, with a descender
		{"α", 8, [2]int{7, 7}},
		{"␣", 8, [2]int{3, 3}},
		{"max 0.42", 64, [2]int{8, 12}},
	} {
		t.Run(tc.text, func(t *testing.T) {
			if w := TextWidth(face, tc.text); w != tc.width {
				t.Errorf("width %d, want %d", w, tc.width)
			}
			m := uniformImage(80, 24, Paper)
			DrawLabel(m, face, tc.text, 4, 16, AlignLeft, Ink)
			box := inkBox(m)
			if box.Dy() < tc.inkHeight[0] || box.Dy() > tc.inkHeight[1] {
				t.Errorf("ink %v, %d rows high, want %d..%d", box, box.Dy(), tc.inkHeight[0], tc.inkHeight[1])
			}
		})
	}
}

func TestLabelScaleAndAlign(t *testing.T) {
	small, big := LabelFace(1, true), LabelFace(2, true)
	if w1, w2 := TextWidth(small, "word"), TextWidth(big, "word"); w2 != 2*w1 {
		t.Errorf("scale 2 width %d, want twice %d", w2, w1)
	}
	if h1, h2 := LineHeight(small), LineHeight(big); h2 != 2*h1 {
		t.Errorf("scale 2 line height %d, want twice %d", h2, h1)
	}
	for _, tc := range []struct {
		align Align
		minX  int
	}{{AlignLeft, 50}, {AlignCenter, 50 - 16}, {AlignRight, 50 - 32}} {
		m := uniformImage(100, 30, Paper)
		DrawLabel(m, small, "word", 50, 20, tc.align, Ink)
		if box := inkBox(m); box.Min.X < tc.minX || box.Min.X > tc.minX+2 {
			t.Errorf("align %d: ink starts at x=%d, want about %d", tc.align, box.Min.X, tc.minX)
		}
	}
	m := uniformImage(40, 100, Paper)
	DrawLabelUp(m, small, "output", 30, 50, Ink)
	if box := inkBox(m); box.Dy() < 3*box.Dx() || box.Max.X > 30 || box.Min.Y < 20 || box.Max.Y > 80 {
		t.Errorf("rotated label ink %v, want a tall box left of x=30 around y=50", box)
	}
}

func TestEllipsize(t *testing.T) {
	face := LabelFace(1, false)
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{"playhouse", 100, "playhouse"},
		{"playhouse", 72, "playhouse"},
		{"playhouse", 71, "playhou…"},
		{"playhouse", 8, "…"},
		{"playhouse", 7, ""},
		{"ça va", 24, "ça…"},
	} {
		if got := Ellipsize(face, tc.in, tc.width); got != tc.want {
			t.Errorf("Ellipsize(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}

func TestFormatWeight(t *testing.T) {
	for _, tc := range []struct {
		v    float32
		want string
	}{
		{0, "0"}, {1, "1.00"}, {0.42, "0.42"}, {0.1, "0.10"}, {0.0999, "0.10"},
		{0.082, "0.082"}, {0.0123, "0.012"}, {0.0049, "0.0049"}, {0.00012, "0.00012"},
	} {
		if got := FormatWeight(tc.v); got != tc.want {
			t.Errorf("FormatWeight(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestVisibleLabel(t *testing.T) {
	for in, want := range map[string]string{"a": "a", " ": "␣", "  ": "␣␣", "": "''", "\t": `\t`, "a b": "a b"} {
		if got := VisibleLabel(in); got != want {
			t.Errorf("VisibleLabel(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLabelMissingGlyphs draws runes the font lacks at both scales: they
// must not panic and must keep their advance, so text stays aligned.
func TestLabelMissingGlyphs(t *testing.T) {
	for _, k := range []int{1, 2} {
		face := LabelFace(k, false)
		m := uniformImage(200, 60, Paper)
		DrawLabel(m, face, "日本 ☃ \uFFFD x", 4, 40, AlignLeft, Ink)
		if w := TextWidth(face, "日本 ☃ x"); w != 8*k*len([]rune("日本 ☃ x")) {
			t.Errorf("scale %d: width %d, want %d", k, w, 8*k*len([]rune("日本 ☃ x")))
		}
	}
}

func TestLabelGlyphOK(t *testing.T) {
	face := LabelFace(2, false)
	for r, want := range map[rune]bool{'a': true, 'é': true, 'β': true, '␣': true, '日': false, '☃': false} {
		if _, ok := face.GlyphAdvance(r); ok != want {
			t.Errorf("GlyphAdvance(%q) ok = %v, want %v", r, ok, want)
		}
		if _, _, _, _, ok := face.Glyph(fixedZero, r); ok != want {
			t.Errorf("Glyph(%q) ok = %v, want %v", r, ok, want)
		}
	}
}
