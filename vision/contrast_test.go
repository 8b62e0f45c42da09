package vision

import (
	"image"
	"image/color"
	"math"
	"testing"
)

func TestContrast(t *testing.T) {
	fill := func(w, h int, at func(x, y int) color.RGBA) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, w, h))
		for y := range h {
			for x := range w {
				img.SetRGBA(x, y, at(x, y))
			}
		}
		return img
	}
	red := func(x, y int) color.RGBA { return color.RGBA{200, 10, 30, 255} }
	halves := func(x, y int) color.RGBA {
		if x < 16 {
			return color.RGBA{0, 0, 0, 255}
		}
		return color.RGBA{255, 255, 255, 255}
	}
	// Only green varies, by ±51 around its mean: 0.2 of full scale.
	green := func(x, y int) color.RGBA {
		g := uint8(100)
		if (x+y)%2 == 0 {
			g = 202
		}
		return color.RGBA{40, g, 40, 255}
	}
	cases := []struct {
		name string
		img  image.Image
		norm Normalization
		want float64
	}{
		{"one colour", fill(32, 32, red), ImageNetNorm, 0},
		{"one colour, bytes", fill(32, 32, red), ByteNorm, 0},
		{"half black, half white", fill(32, 32, halves), ImageNetNorm, 0.5},
		{"half black, half white, [-1, 1]", fill(32, 32, halves), MobileNetNorm, 0.5},
		{"one channel varies", fill(32, 32, green), UnitNorm, 0.2},
		{"a strip of one colour, squashed", fill(4000, 3, red), ImageNetNorm, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tensor, err := ToTensor(c.img, 32, &PreprocessOptions{Norm: c.norm})
			if err != nil {
				t.Fatal(err)
			}
			got := tensor.Contrast(c.norm)
			if math.Abs(got-c.want) > 1e-4 {
				t.Errorf("Contrast = %.5f, want %.5f", got, c.want)
			}
		})
	}
	if got := (&Tensor{}).Contrast(ImageNetNorm); got != 0 {
		t.Errorf("empty tensor: Contrast = %v, want 0", got)
	}
}
