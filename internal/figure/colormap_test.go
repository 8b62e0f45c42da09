package figure

import (
	"image/color"
	"math"
	"testing"
)

// TestColormapTables checks entries of the published tables (matplotlib
// _cm_listed.py; Google's turbo_colormap.py) after rounding to 8 bits.
func TestColormapTables(t *testing.T) {
	for _, tc := range []struct {
		cm    *Colormap
		index int
		rgb   [3]float64 // as published
	}{
		{Viridis, 0, [3]float64{0.267004, 0.004874, 0.329415}},
		{Viridis, 128, [3]float64{0.127568, 0.566949, 0.550556}},
		{Viridis, 255, [3]float64{0.993248, 0.906157, 0.143936}},
		{Inferno, 0, [3]float64{0.001462, 0.000466, 0.013866}},
		{Inferno, 255, [3]float64{0.988362, 0.998364, 0.644924}},
		{Turbo, 0, [3]float64{0.18995, 0.07176, 0.23217}},
		{Turbo, 255, [3]float64{0.47960, 0.01583, 0.01055}},
	} {
		want := color.RGBA{round8(tc.rgb[0]), round8(tc.rgb[1]), round8(tc.rgb[2]), 255}
		if got := tc.cm.lut[tc.index]; got != want {
			t.Errorf("%s[%d] = %v, want %v", tc.cm, tc.index, got, want)
		}
	}
}

func round8(v float64) uint8 { return uint8(math.Round(v * 255)) }

// TestColormapLightness checks the property that makes viridis and inferno
// readable in grayscale: lightness rises with the value.
func TestColormapLightness(t *testing.T) {
	for _, cm := range []*Colormap{Viridis, Inferno, Mask} {
		prev := -1.0
		for i, c := range cm.lut {
			l := 0.2126*float64(c.R) + 0.7152*float64(c.G) + 0.0722*float64(c.B)
			if l < prev-1.5 { // 8-bit rounding may wobble by a level
				t.Errorf("%s: luma falls from %.1f to %.1f at entry %d", cm, prev, l, i)
				break
			}
			prev = max(prev, l)
		}
	}
}

func TestColormapAt(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	for _, tc := range []struct {
		name string
		v    float32
		want int
	}{
		{"zero", 0, 0},
		{"one", 1, 255},
		{"half", 0.5, 128},
		{"below", -3, 0},
		{"above", 7, 255},
		{"NaN", nan, 0},
		{"+Inf", inf, 255},
		{"-Inf", -inf, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, want := Turbo.At(tc.v), Turbo.lut[tc.want]; got != want {
				t.Errorf("At(%v) = %v, want entry %d %v", tc.v, got, tc.want, want)
			}
		})
	}
}

func TestColormapByName(t *testing.T) {
	for _, cm := range []*Colormap{Viridis, Inferno, Turbo, Mask} {
		got, ok := ColormapByName(cm.Name())
		if !ok || got != cm {
			t.Errorf("ColormapByName(%q) = %v, %v", cm.Name(), got, ok)
		}
	}
	if _, ok := ColormapByName("jet"); ok {
		t.Error(`ColormapByName("jet") found a colormap`)
	}
	if !Mask.IsMask() || Turbo.IsMask() {
		t.Error("IsMask is wrong")
	}
}
