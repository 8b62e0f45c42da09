package vision

import (
	"image"
	"image/color"
	"slices"
)

// medianCut returns a palette of at most n colors for the pixels of the
// frames: the reserved colors, then colors from Heckbert's median cut
// ("Color image quantization for frame buffer display", SIGGRAPH 1982).
// Pixels are binned to 5 bits a channel; the box with the most pixels
// (among those with more than one bin) is split at the pixel median of its
// longest side until the palette is full, and each box gives the mean of
// its pixels.
func medianCut(frames []*image.RGBA, n int, reserved color.Palette) color.Palette {
	type bin struct {
		key        [3]uint8 // 5-bit coordinates
		count      int
		sr, sg, sb int // sums of the 8-bit values
	}
	bins := make(map[uint16]*bin)
	for _, f := range frames {
		for y := f.Rect.Min.Y; y < f.Rect.Max.Y; y++ {
			row := f.Pix[(y-f.Rect.Min.Y)*f.Stride : (y-f.Rect.Min.Y)*f.Stride+4*f.Rect.Dx()]
			for x := 0; x < len(row); x += 4 {
				r, g, b := row[x], row[x+1], row[x+2]
				k := uint16(r>>3)<<10 | uint16(g>>3)<<5 | uint16(b>>3)
				e := bins[k]
				if e == nil {
					e = &bin{key: [3]uint8{r >> 3, g >> 3, b >> 3}}
					bins[k] = e
				}
				e.count++
				e.sr += int(r)
				e.sg += int(g)
				e.sb += int(b)
			}
		}
	}
	all := make([]*bin, 0, len(bins))
	for _, e := range bins {
		all = append(all, e)
	}
	// Map iteration order is random: sort for a deterministic palette.
	slices.SortFunc(all, func(a, b *bin) int {
		return int(a.key[0])<<10 | int(a.key[1])<<5 | int(a.key[2]) -
			(int(b.key[0])<<10 | int(b.key[1])<<5 | int(b.key[2]))
	})

	type box struct {
		bins  []*bin
		count int
	}
	boxes := []box{{bins: all}}
	for _, e := range all {
		boxes[0].count += e.count
	}
	want := n - len(reserved)
	for len(boxes) < want {
		best := -1
		for i, b := range boxes {
			if len(b.bins) > 1 && (best < 0 || b.count > boxes[best].count) {
				best = i
			}
		}
		if best < 0 {
			break
		}
		b := boxes[best]
		// Longest side of the box's bounding cube.
		var lo, hi [3]uint8
		lo = [3]uint8{255, 255, 255}
		for _, e := range b.bins {
			for c := range 3 {
				lo[c] = min(lo[c], e.key[c])
				hi[c] = max(hi[c], e.key[c])
			}
		}
		axis := 0
		for c := 1; c < 3; c++ {
			if hi[c]-lo[c] > hi[axis]-lo[axis] {
				axis = c
			}
		}
		slices.SortStableFunc(b.bins, func(p, q *bin) int { return int(p.key[axis]) - int(q.key[axis]) })
		// Split where half the pixels lie below, keeping both halves
		// non-empty.
		half, acc, cut := b.count/2, 0, 1
		for i, e := range b.bins[:len(b.bins)-1] {
			acc += e.count
			cut = i + 1
			if acc >= half {
				break
			}
		}
		left, right := box{bins: b.bins[:cut]}, box{bins: b.bins[cut:]}
		for _, e := range left.bins {
			left.count += e.count
		}
		right.count = b.count - left.count
		boxes[best] = left
		boxes = append(boxes, right)
	}
	pal := append(color.Palette(nil), reserved...)
	for _, b := range boxes {
		var r, g, bl int
		for _, e := range b.bins {
			r += e.sr
			g += e.sg
			bl += e.sb
		}
		c := b.count
		if c == 0 {
			continue
		}
		pal = append(pal, color.RGBA{uint8((r + c/2) / c), uint8((g + c/2) / c), uint8((bl + c/2) / c), 255})
	}
	return pal
}

// paletteIndex finds nearest palette colors, caching the answer for each
// 5-bit-per-channel bin (searched at the bin's center): a frame then costs
// a table lookup per pixel instead of a search of the whole palette.
type paletteIndex struct {
	pal   []color.RGBA
	cache [1 << 15]int16 // index + 1; 0 is unknown
}

func newPaletteIndex(p color.Palette) *paletteIndex {
	x := &paletteIndex{pal: make([]color.RGBA, len(p))}
	for i, c := range p {
		x.pal[i] = color.RGBAModel.Convert(c).(color.RGBA)
	}
	return x
}

// nearest returns the index of the palette color nearest to (r, g, b)'s
// bin in squared RGB distance.
func (x *paletteIndex) nearest(r, g, b uint8) int {
	k := int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3)
	if i := x.cache[k]; i > 0 {
		return int(i) - 1
	}
	cr, cg, cb := int(r&^7)+4, int(g&^7)+4, int(b&^7)+4
	best, bestD := 0, 1<<30
	for i, c := range x.pal {
		dr, dg, db := cr-int(c.R), cg-int(c.G), cb-int(c.B)
		if d := dr*dr + dg*dg + db*db; d < bestD {
			best, bestD = i, d
		}
	}
	x.cache[k] = int16(best + 1)
	return best
}

// ditherFloydSteinberg writes src into dst (same bounds, dst's palette
// indexed by x) with Floyd–Steinberg error diffusion: each pixel's
// quantization error goes 7/16 right, 3/16 down-left, 5/16 down and 1/16
// down-right, in raster order.
func ditherFloydSteinberg(dst *image.Paletted, src *image.RGBA, x *paletteIndex) {
	w, h := src.Rect.Dx(), src.Rect.Dy()
	// Errors of this row and the next, in 1/16 levels, with a pixel of
	// padding on each side.
	cur := make([][3]int32, w+2)
	next := make([][3]int32, w+2)
	for y := range h {
		row := src.Pix[y*src.Stride : y*src.Stride+4*w]
		out := dst.Pix[y*dst.Stride : y*dst.Stride+w]
		for i := range next {
			next[i] = [3]int32{}
		}
		for px := range w {
			var v [3]uint8
			for c := range 3 {
				t := int32(row[4*px+c]) + (cur[px+1][c]+8)>>4
				v[c] = uint8(min(max(t, 0), 255))
			}
			i := x.nearest(v[0], v[1], v[2])
			out[px] = uint8(i)
			p := x.pal[i]
			e := [3]int32{int32(v[0]) - int32(p.R), int32(v[1]) - int32(p.G), int32(v[2]) - int32(p.B)}
			for c := range 3 {
				cur[px+2][c] += 7 * e[c]
				next[px][c] += 3 * e[c]
				next[px+1][c] += 5 * e[c]
				next[px+2][c] += e[c]
			}
		}
		cur, next = next, cur
	}
}
