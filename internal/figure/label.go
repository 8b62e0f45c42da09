package figure

import (
	"image"
	"image/color"
	"strconv"
	"strings"

	"golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/inconsolata"
	"golang.org/x/image/math/fixed"
)

// Labels are set in Inconsolata 8×16 (golang.org/x/image/font/inconsolata,
// SIL Open Font License), a crisp bitmap font covering Latin-1 and Latin
// Extended-A, plus three glyphs drawn here: α, β and ␣ (a visible space).
// Other runes draw as a box. The outline fonts of x/image (Go Regular
// through font/opentype) need golang.org/x/text, which this module does
// not require.
//
// LabelFace returns the regular or bold face magnified by an integer
// scale (nearest neighbor, so strokes stay sharp). Faces keep no state,
// so they are safe for concurrent use.
func LabelFace(scale int, bold bool) font.Face {
	var f font.Face = inconsolata.Regular8x16
	if bold {
		f = inconsolata.Bold8x16
	}
	return &labelFont{base: f, scale: max(1, scale)}
}

// labelFont adds the extra glyphs to a bitmap face and magnifies it.
type labelFont struct {
	base  font.Face
	scale int
}

// extraGlyphs are 9×17 masks in Inconsolata's cell: the dot (baseline) is
// at row 14 from the top, as in that font. '#' is ink, '+' half ink.
var extraGlyphs = map[rune][17]string{
	'β': {
		".........", ".........", ".........", "..+##+...", ".#+..#+..",
		".#...+#..", ".#...#+..", ".#.###...", ".#...##..", ".#....#..",
		".#....#..", ".#....#..", ".##..+#..", ".#+##+...", ".#.......",
		".#.......", ".........",
	},
	'α': {
		".........", ".........", ".........", ".........", ".........",
		".........", ".........", "..+##+.#.", ".#+..##..", ".#....#..",
		".#....#..", ".#....#..", ".#+..##..", "..+##+.#.", ".........",
		".........", ".........",
	},
	'␣': {
		".........", ".........", ".........", ".........", ".........",
		".........", ".........", ".........", ".........", ".........",
		".........", ".#....#..", ".#....#..", ".######..", ".........",
		".........", ".........",
	},
	// A box for every rune the font lacks.
	'\uFFFD': {
		".........", ".........", ".........", ".######..", ".#....#..",
		".#....#..", ".#....#..", ".#....#..", ".#....#..", ".#....#..",
		".#....#..", ".#....#..", ".#....#..", ".######..", ".........",
		".........", ".........",
	},
}

// extraMasks holds extraGlyphs as alpha masks, stacked vertically.
var extraMasks, extraIndex = buildExtraMasks()

func buildExtraMasks() (*image.Alpha, map[rune]int) {
	m := image.NewAlpha(image.Rect(0, 0, 9, 17*len(extraGlyphs)))
	index := make(map[rune]int, len(extraGlyphs))
	i := 0
	for _, r := range "αβ␣\uFFFD" {
		for y, row := range extraGlyphs[r] {
			for x, c := range row {
				switch c {
				case '#':
					m.Pix[(17*i+y)*m.Stride+x] = 0xff
				case '+':
					m.Pix[(17*i+y)*m.Stride+x] = 0x80
				}
			}
		}
		index[r] = i
		i++
	}
	return m, index
}

func (f *labelFont) Close() error { return nil }

func (f *labelFont) Metrics() font.Metrics {
	m := f.base.Metrics()
	k := fixed.Int26_6(f.scale)
	m.Height *= k
	m.Ascent *= k
	m.Descent *= k
	m.XHeight *= k
	m.CapHeight *= k
	return m
}

func (f *labelFont) Kern(r0, r1 rune) fixed.Int26_6 { return 0 }

// extra returns the index of r's glyph among extraGlyphs: its own, or the
// box for runes the font lacks; false for the font's own runes.
func (f *labelFont) extra(r rune) (int, bool) {
	if i, ok := extraIndex[r]; ok {
		return i, true
	}
	if _, ok := f.base.GlyphAdvance(r); !ok {
		return extraIndex['\uFFFD'], true
	}
	return 0, false
}

// has reports whether r has a glyph of its own (not the box).
func (f *labelFont) has(r rune) bool {
	_, own := extraIndex[r]
	_, base := f.base.GlyphAdvance(r)
	return own || base
}

func (f *labelFont) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	adv, _ := f.base.GlyphAdvance('x') // monospaced
	return adv * fixed.Int26_6(f.scale), f.has(r)
}

func (f *labelFont) GlyphBounds(r rune) (fixed.Rectangle26_6, fixed.Int26_6, bool) {
	b, adv, _ := f.base.GlyphBounds('x')
	if _, extra := f.extra(r); !extra {
		b, adv, _ = f.base.GlyphBounds(r)
	}
	k := fixed.Int26_6(f.scale)
	b.Min.X, b.Min.Y, b.Max.X, b.Max.Y = b.Min.X*k, b.Min.Y*k, b.Max.X*k, b.Max.Y*k
	return b, adv * k, f.has(r)
}

func (f *labelFont) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	var (
		dr   image.Rectangle
		mask image.Image
		mp   image.Point
		adv  fixed.Int26_6
		ok   bool
	)
	if i, extra := f.extra(r); extra {
		adv, _ = f.base.GlyphAdvance('x')
		mask, mp, ok = extraMasks, image.Pt(0, 17*i), f.has(r)
		dr = image.Rect(0, -14, 9, 3)
	} else {
		dr, mask, mp, adv, ok = f.base.Glyph(fixed.Point26_6{}, r)
	}
	k := f.scale
	x, y := dot.X.Round(), dot.Y.Round()
	if k == 1 {
		return dr.Add(image.Pt(x, y)), mask, mp, adv, ok
	}
	big := image.NewAlpha(image.Rect(0, 0, dr.Dx()*k, dr.Dy()*k))
	draw.NearestNeighbor.Scale(big, big.Rect, mask, image.Rectangle{Min: mp, Max: mp.Add(dr.Size())}, draw.Src, nil)
	dr = image.Rect(dr.Min.X*k, dr.Min.Y*k, dr.Max.X*k, dr.Max.Y*k)
	return dr.Add(image.Pt(x, y)), big, image.Point{}, adv * fixed.Int26_6(k), ok
}

// Align places text horizontally relative to the x given to
// DrawLabel.
type Align int

const (
	AlignLeft Align = iota
	AlignCenter
	AlignRight
)

// TextWidth returns the advance width of s in whole pixels.
func TextWidth(face font.Face, s string) int {
	return font.MeasureString(face, s).Ceil()
}

// Ascent, Descent and line height (baseline to baseline) in pixels.
func Ascent(face font.Face) int     { return face.Metrics().Ascent.Ceil() }
func Descent(face font.Face) int    { return face.Metrics().Descent.Ceil() }
func LineHeight(face font.Face) int { return face.Metrics().Height.Ceil() }

// DrawLabel draws s with its baseline at y, aligned at x, in color c.
func DrawLabel(dst draw.Image, face font.Face, s string, x, y int, align Align, c color.Color) {
	switch align {
	case AlignCenter:
		x -= TextWidth(face, s) / 2
	case AlignRight:
		x -= TextWidth(face, s)
	}
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: face, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// Ellipsize shortens s with a trailing "…" so that it is at most width
// pixels wide; it returns "" when not even the ellipsis fits.
func Ellipsize(face font.Face, s string, width int) string {
	return EllipsizeMore(face, s, width, false)
}

// WrapWords breaks s at spaces into lines of at most width pixels, at
// most maxLines of them: a word wider than a line is ellipsized, and the
// last line is when words remain.
func WrapWords(face font.Face, s string, width, maxLines int) []string {
	var lines []string
	words := strings.Fields(s)
	for len(words) > 0 && len(lines) < maxLines {
		n := 1
		for n < len(words) && TextWidth(face, strings.Join(words[:n+1], " ")) <= width {
			n++
		}
		line := strings.Join(words[:n], " ")
		words = words[n:]
		if len(lines) == maxLines-1 && len(words) > 0 {
			line = EllipsizeMore(face, line, width, true)
			words = nil
		}
		lines = append(lines, Ellipsize(face, line, width))
	}
	return lines
}

// EllipsizeMore is Ellipsize, with the ellipsis even when s fits if more
// is true (text follows that did not fit).
func EllipsizeMore(face font.Face, s string, width int, more bool) string {
	if more {
		for runes := []rune(s); len(runes) > 0; runes = runes[:len(runes)-1] {
			if t := string(runes) + "…"; TextWidth(face, t) <= width {
				return t
			}
		}
		return ""
	}
	if TextWidth(face, s) <= width {
		return s
	}
	runes := []rune(s)
	for n := len(runes) - 1; n >= 0; n-- {
		if t := string(runes[:n]) + "…"; TextWidth(face, t) <= width {
			return t
		}
	}
	return ""
}

// DrawLabelUp draws s rotated 90° counter-clockwise (reading upwards),
// centered vertically at y, in the columns [x − LineHeight, x).
func DrawLabelUp(dst draw.Image, face font.Face, s string, x, y int, c color.Color) {
	w, h := TextWidth(face, s), LineHeight(face)
	if w <= 0 || h <= 0 {
		return
	}
	tmp := image.NewAlpha(image.Rect(0, 0, w, h))
	d := font.Drawer{Dst: tmp, Src: image.Opaque, Face: face, Dot: fixed.P(0, h-Descent(face))}
	d.DrawString(s)
	// Text pixel (u, v) goes to column v, row w−1−u of the rotated mask.
	rot := image.NewAlpha(image.Rect(0, 0, h, w))
	for v := range h {
		for u := range w {
			rot.Pix[(w-1-u)*rot.Stride+v] = tmp.Pix[v*tmp.Stride+u]
		}
	}
	r := image.Rect(x-h, y-w/2, x, y-w/2+w)
	draw.DrawMask(dst, r, image.NewUniform(c), image.Point{}, rot, image.Point{}, draw.Over)
}

// VisibleLabel makes whitespace-only labels visible: a space becomes "␣",
// a tab or newline its escape, and an empty label two quote marks.
func VisibleLabel(s string) string {
	switch {
	case s == "":
		return "''"
	case strings.TrimSpace(s) == "":
		return strings.NewReplacer(" ", "␣", "\t", `\t`, "\n", `\n`).Replace(s)
	}
	return s
}

// FormatWeight writes an attention weight briefly: two decimals from
// 0.1 up, three from 0.01, two significant digits below.
func FormatWeight(v float32) string {
	f := float64(v)
	switch {
	case f == 0:
		return "0"
	case f >= 0.0995:
		return strconv.FormatFloat(f, 'f', 2, 64)
	case f >= 0.00995:
		return strconv.FormatFloat(f, 'f', 3, 64)
	}
	return strconv.FormatFloat(f, 'g', 2, 64)
}
