package plot

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
	"time"
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

// FuzzAlignmentPlot draws alignment plots of fuzzed shapes, values, labels
// and boundaries: never a panic, and errors wrap the sentinels.
func FuzzAlignmentPlot(f *testing.F) {
	f.Add(uint16(100), uint8(40), uint8(5), uint16(25), uint8(10), uint8(40), false, []byte("hello"))
	f.Add(uint16(1), uint8(1), uint8(1), uint16(1), uint8(0), uint8(0), true, []byte{0xff, 0xfe, 0x20})
	f.Add(uint16(3000), uint8(80), uint8(60), uint16(400), uint8(1), uint8(200), false, []byte(" a b "))
	f.Fuzz(func(t *testing.T, frames uint16, bins, outputs uint8, enc uint16, shiftMs, encMs uint8, raw bool, data []byte) {
		nf, nb := int(frames%4000), int(bins%100)
		no, ne := int(outputs%80), int(enc%500)
		spec := Spectrogram{Frames: nf, Bins: nb, Data: fuzzFloats(data, nf*nb, raw), FrameShift: time.Duration(shiftMs) * time.Millisecond}
		al := Alignment{Outputs: no, Frames: ne, Weights: make([]float32, 0, no*ne), FrameDuration: time.Duration(encMs) * time.Millisecond}
		for range no {
			al.Weights = append(al.Weights, fuzzFloats(data, ne, raw)...)
		}
		if len(data) > 0 && data[0]%2 == 0 {
			for k := range no {
				al.Labels = append(al.Labels, string(data[min(k, len(data)):min(len(data), k+1+int(data[0]%3))]))
			}
		}
		o := &AlignmentOptions{Title: string(data), RowHeight: int(encMs % 70), Width: int(shiftMs) * 7}
		for i := 0; i+1 < len(data) && i < 8; i += 2 {
			o.WordBoundaries = append(o.WordBoundaries, time.Duration(data[i])*time.Duration(data[i+1])*time.Millisecond)
		}
		m, err := AlignmentPlot(spec, al, o)
		if err != nil {
			if !errors.Is(err, ErrOptions) && !errors.Is(err, ErrWeights) {
				t.Fatalf("error %v wraps none of the sentinels", err)
			}
			return
		}
		if m.Rect.Dx() < 400 && o.Width == 0 {
			t.Fatalf("plot %v narrower than the default plot area", m.Rect)
		}
	})
}
