package vision

import (
	"encoding/binary"
	"errors"
	"image"
	"math"
	"testing"
)

// fuzzFloats reads float32 values from b, 4 bytes each, as raw bits (so
// NaN, infinities and negative values occur) when raw, else as
// non-negative values normalized to sum 1.
func fuzzFloats(b []byte, n int, raw bool) []float32 {
	w := make([]float32, n)
	var sum float64
	for i := range w {
		var u uint32
		if len(b) >= 4*(i+1) {
			u = binary.LittleEndian.Uint32(b[4*i:])
		} else {
			u = uint32(i * 2654435761)
		}
		if raw {
			w[i] = math.Float32frombits(u)
			continue
		}
		w[i] = float32(u%1000) + 0.5
		sum += float64(w[i])
	}
	if !raw {
		for i := range w {
			w[i] = float32(float64(w[i]) / sum)
		}
	}
	return w
}

// FuzzOverlayPanels draws figures of every shape and option from fuzzed
// bytes: it must never panic, errors must wrap the package's sentinels,
// and a figure must be as large as its panels.
func FuzzOverlayPanels(f *testing.F) {
	f.Add(uint8(7), uint8(7), uint16(64), uint16(48), uint8(0), uint8(0), false, []byte("weights"))
	f.Add(uint8(1), uint8(1), uint16(1), uint16(1), uint8(1), uint8(2), true, []byte{0, 0, 0xc0, 0x7f})
	f.Add(uint8(14), uint8(3), uint16(300), uint16(2), uint8(2), uint8(1), false, []byte{1, 2, 3})
	f.Add(uint8(4), uint8(4), uint16(33), uint16(97), uint8(0x27), uint8(0xff), true, []byte{0, 0, 0x80, 0xbf, 0, 0, 0x80, 0x3f})
	f.Add(uint8(2), uint8(3), uint16(40), uint16(30), uint8(0x80), uint8(0x41), false, []byte("日本 ☃ word"))
	f.Fuzz(func(t *testing.T, rows, cols uint8, w, h uint16, mode, opt uint8, raw bool, data []byte) {
		r, c := int(rows%20), int(cols%20) // 0 is an error case
		iw, ih := int(w%400), int(h%400)
		img := testScene(max(iw, 1), max(ih, 1))
		var src image.Image = img
		if iw == 0 {
			src = img.SubImage(image.Rect(0, 0, 0, ih))
		}
		o := &PanelsOptions{
			OverlayOptions: OverlayOptions{
				Smoothing:     Smoothing(mode % 4),      // 3 is invalid
				Fit:           Fit(mode / 4 % 3),        // 2 is invalid
				Scale:         HeatScale(mode / 12 % 4), // 3 is invalid
				Sigma:         float64(opt%16) / 4,
				CropFraction:  float64(opt/16) / 12, // > 1 is invalid
				Alpha:         float64(opt%5) / 4,
				ConstantAlpha: opt&1 != 0,
				Size:          int(opt) % 130,
			},
			Columns:  int(opt % 7),
			ShowBeta: opt&2 != 0,
			NoLegend: opt&4 != 0,
			Title:    string(data[:min(len(data), 12)]),
		}
		if opt&8 != 0 {
			o.Colormap = Mask
		}
		if mode&0x80 != 0 && opt&0x40 != 0 {
			o.Size = 680 // magnified labels
		}
		if opt&16 != 0 {
			o.Region = image.Rect(int(opt%9), int(mode%9), int(opt%9)+int(opt/8), int(mode%9)+int(mode/8))
		}
		n := int(opt % 4)
		panels := make([]Panel, n)
		for i := range panels {
			panels[i] = Panel{
				Word:    string(data[min(i, len(data)):min(len(data), i+9)]),
				Weights: fuzzFloats(data, r*c, raw),
				Beta:    float32(int(mode)-100) / 50,
				Peak:    i%2 == 0,
			}
			if i == 1 {
				panels[i].Marker = &Cell{int(mode%5) - 1, int(opt % 5)}
			}
		}
		fig, err := OverlayPanels(src, panels, r, c, o)
		if err != nil {
			if !errors.Is(err, ErrOptions) && !errors.Is(err, ErrWeights) && !errors.Is(err, ErrDimensions) {
				t.Fatalf("error %v wraps none of the sentinels", err)
			}
			return
		}
		side := o.Size
		if side == 0 {
			side = DefaultPanelSize
		}
		pw, ph := fitLongSide(src.Bounds().Dx(), src.Bounds().Dy(), side)
		if fig.Rect.Dx() < pw || fig.Rect.Dy() < ph {
			t.Fatalf("figure %v smaller than a %d×%d panel", fig.Rect, pw, ph)
		}
		if n > 0 {
			if _, err := OverlayGIF(src, panels[:1], r, c, &GIFOptions{PanelsOptions: *o}); err != nil {
				t.Fatalf("OverlayGIF failed where OverlayPanels did not: %v", err)
			}
		}
	})
}
