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
