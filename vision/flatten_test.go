package vision

import (
	"image"
	"image/color"
	"testing"
)

// one returns a 1×1 image of type T holding c.
func one[T interface {
	image.Image
	Set(x, y int, c color.Color)
}](m T, c color.Color) image.Image {
	m.Set(0, 0, c)
	return m
}

func TestFlatten(t *testing.T) {
	r1 := image.Rect(0, 0, 1, 1)
	halfRed := color.NRGBA{255, 0, 0, 128}
	pal := image.NewPaletted(r1, color.Palette{color.NRGBA{}, halfRed})
	pal.SetColorIndex(0, 0, 1)
	transparentPal := image.NewPaletted(r1, color.Palette{color.NRGBA{}, halfRed})
	ry, rcb, rcr := color.RGBToYCbCr(255, 0, 0)
	ycc := image.NewYCbCr(r1, image.YCbCrSubsampleRatio420)
	ycc.Y[0], ycc.Cb[0], ycc.Cr[0] = ry, rcb, rcr
	nycca := image.NewNYCbCrA(r1, image.YCbCrSubsampleRatio444)
	nycca.Y[0], nycca.Cb[0], nycca.Cr[0], nycca.A[0] = ry, rcb, rcr, 128
	sub := image.NewRGBA(image.Rect(-3, 5, 4, 9))
	sub.Set(2, 7, color.RGBA{10, 20, 30, 255})

	tests := []struct {
		name string
		img  image.Image
		bg   color.Color
		want color.RGBA
	}{
		{"gray", one(image.NewGray(r1), color.Gray{100}), nil, color.RGBA{100, 100, 100, 255}},
		{"gray16", one(image.NewGray16(r1), color.Gray16{0x8080}), nil, color.RGBA{0x80, 0x80, 0x80, 255}},
		{"cmyk/red", one(image.NewCMYK(r1), color.CMYK{0, 255, 255, 0}), nil, red},
		{"cmyk/black", one(image.NewCMYK(r1), color.CMYK{0, 0, 0, 255}), nil, black},
		{"cmyk/k-half", one(image.NewCMYK(r1), color.CMYK{0, 0, 0, 128}), nil, color.RGBA{127, 127, 127, 255}},
		{"ycbcr", ycc, nil, red},
		{"paletted/half-red/white", pal, nil, color.RGBA{255, 127, 127, 255}},
		{"paletted/half-red/black", pal, color.Black, color.RGBA{128, 0, 0, 255}},
		{"paletted/transparent/white", transparentPal, nil, white},
		{"paletted/transparent/black", transparentPal, color.Black, black},
		{"nrgba/quarter-blue/white", one(image.NewNRGBA(r1), color.NRGBA{0, 0, 255, 64}), nil, color.RGBA{191, 191, 255, 255}},
		{"nrgba/quarter-blue/black", one(image.NewNRGBA(r1), color.NRGBA{0, 0, 255, 64}), color.Black, color.RGBA{0, 0, 64, 255}},
		{"nrgba/opaque", one(image.NewNRGBA(r1), color.NRGBA{1, 2, 3, 255}), color.Black, color.RGBA{1, 2, 3, 255}},
		{"rgba64/half-red", one(image.NewRGBA64(r1), color.RGBA64{0x8000, 0, 0, 0x8000}), nil, color.RGBA{255, 127, 127, 255}},
		{"nrgba64/transparent", one(image.NewNRGBA64(r1), color.NRGBA64{0, 0xffff, 0, 0}), color.RGBA{1, 2, 3, 255}, color.RGBA{1, 2, 3, 255}},
		{"alpha/white-over-black", one(image.NewAlpha(r1), color.Alpha{128}), color.Black, color.RGBA{128, 128, 128, 255}},
		{"nycbcra/half-red/white", nycca, nil, color.RGBA{255, 127, 127, 255}},
		{"bg/transparent-is-black", one(image.NewNRGBA(r1), color.NRGBA{}), color.Transparent, black},
		{"bg/translucent-premultiplied", one(image.NewNRGBA(r1), color.NRGBA{}), color.NRGBA{200, 100, 0, 128}, color.RGBA{100, 50, 0, 255}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Flatten(tc.img, tc.bg)
			if got.Rect != r1 {
				t.Fatalf("bounds %v, want %v", got.Rect, r1)
			}
			if c := got.RGBAAt(0, 0); !near(c, tc.want, 1) {
				t.Errorf("pixel %v, want %v ± 1", c, tc.want)
			}
		})
	}

	t.Run("subimage-origin", func(t *testing.T) {
		got := Flatten(sub.SubImage(image.Rect(1, 6, 4, 9)), nil)
		if got.Rect != image.Rect(0, 0, 3, 3) {
			t.Fatalf("bounds %v, want (0,0)-(3,3)", got.Rect)
		}
		if c := got.RGBAAt(1, 1); c != (color.RGBA{10, 20, 30, 255}) {
			t.Errorf("pixel (1,1) = %v, want the source pixel (2,7)", c)
		}
	})
}
