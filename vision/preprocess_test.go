package vision

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"math"
	"testing"

	"golang.org/x/image/draw"
)

// hidden hides an image's concrete type so that x/image/draw takes its
// generic path.
type hidden struct{ image.Image }

func TestTensorLayout(t *testing.T) {
	// A 4×3 image whose every channel value encodes its position.
	const w, h = 4, 3
	src := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			src.SetRGBA(x, y, color.RGBA{uint8(10*x + y), uint8(100 + 10*x + y), uint8(200 + 10*x + y), 255})
		}
	}
	for _, interp := range []draw.Interpolator{nil, draw.NearestNeighbor, draw.CatmullRom} {
		// Squash to 4×4 would change the image; use a square crop instead:
		// CenterCrop of 4×3 is the 3×3 square at x = 0..2 (offset (4-3)/2 = 0).
		p, err := NewPreprocessor(3, &PreprocessOptions{Fit: CenterCrop, Norm: ByteNorm, Interpolator: interp})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.CropRect(src.Rect); got != image.Rect(0, 0, 3, 3) {
			t.Fatalf("CropRect %v, want (0,0)-(3,3)", got)
		}
		ten, err := p.Tensor(src)
		if err != nil {
			t.Fatal(err)
		}
		if ten.C != 3 || ten.H != 3 || ten.W != 3 || len(ten.Data) != 27 {
			t.Fatalf("tensor %dx%dx%d with %d values, want 3x3x3", ten.C, ten.H, ten.W, len(ten.Data))
		}
		for c := 0; c < 3; c++ {
			plane := ten.Plane(c)
			for y := 0; y < 3; y++ {
				for x := 0; x < 3; x++ {
					want := float32(100*c + 10*x + y)
					if got := ten.Data[(c*3+y)*3+x]; math.Abs(float64(got-want)) > 1e-3 {
						t.Errorf("%T: Data[(%d*H+%d)*W+%d] = %v, want %v", interp, c, y, x, got, want)
					}
					if ten.At(c, y, x) != plane[y*3+x] {
						t.Errorf("At and Plane disagree at c=%d y=%d x=%d", c, y, x)
					}
				}
			}
		}
	}
}

func TestNormalizationPresets(t *testing.T) {
	px := [3]uint8{0, 128, 255}
	src := image.NewRGBA(image.Rect(0, 0, 1, 1))
	src.SetRGBA(0, 0, color.RGBA{px[0], px[1], px[2], 255})
	tests := []struct {
		name string
		norm Normalization
		want [3]float64
	}{
		{"zero-is-imagenet", Normalization{}, [3]float64{-0.485 / 0.229, (128.0/255 - 0.456) / 0.224, (1 - 0.406) / 0.225}},
		{"imagenet", ImageNetNorm, [3]float64{-0.485 / 0.229, (128.0/255 - 0.456) / 0.224, (1 - 0.406) / 0.225}},
		{"mobilenet", MobileNetNorm, [3]float64{-1, (128 - 127.5) / 127.5, 1}},
		{"unit", UnitNorm, [3]float64{0, 128.0 / 255, 1}},
		{"byte", ByteNorm, [3]float64{0, 128, 255}},
		{"custom", Normalization{Mean: [3]float32{1, 0, 0.5}, Std: [3]float32{2, -1, 0.25}}, [3]float64{-0.5, -128.0 / 255, 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ten, err := ToTensor(src, 1, &PreprocessOptions{Norm: tc.norm})
			if err != nil {
				t.Fatal(err)
			}
			for c, want := range tc.want {
				if got := float64(ten.Data[c]); math.Abs(got-want) > 1e-5*math.Max(1, math.Abs(want)) {
					t.Errorf("channel %d (byte %d): %v, want %v", c, px[c], got, want)
				}
			}
		})
	}
}

func TestCropRect(t *testing.T) {
	tests := []struct {
		name   string
		opts   PreprocessOptions
		bounds image.Rectangle
		want   image.Rectangle
	}{
		{"landscape", PreprocessOptions{Fit: CenterCrop}, image.Rect(0, 0, 640, 480), image.Rect(80, 0, 560, 480)},
		{"portrait", PreprocessOptions{Fit: CenterCrop}, image.Rect(0, 0, 480, 640), image.Rect(0, 80, 480, 560)},
		{"square", PreprocessOptions{Fit: CenterCrop}, image.Rect(0, 0, 224, 224), image.Rect(0, 0, 224, 224)},
		{"offset-origin", PreprocessOptions{Fit: CenterCrop}, image.Rect(-10, 20, 90, 70), image.Rect(15, 20, 65, 70)},
		{"odd-margin", PreprocessOptions{Fit: CenterCrop}, image.Rect(0, 0, 5, 2), image.Rect(1, 0, 3, 2)},
		{"fraction-0.875", PreprocessOptions{Fit: CenterCrop, CropFraction: 0.875}, image.Rect(0, 0, 640, 480), image.Rect(110, 30, 530, 450)},
		{"fraction-tiny", PreprocessOptions{Fit: CenterCrop, CropFraction: 0.01}, image.Rect(0, 0, 10, 10), image.Rect(4, 4, 5, 5)},
		{"squash", PreprocessOptions{Fit: Squash}, image.Rect(3, 4, 640, 480), image.Rect(3, 4, 640, 480)},
		{"squash-ignores-fraction", PreprocessOptions{Fit: Squash, CropFraction: 0.5}, image.Rect(0, 0, 8, 4), image.Rect(0, 0, 8, 4)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPreprocessor(224, &tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := p.CropRect(tc.bounds); got != tc.want {
				t.Errorf("CropRect(%v) = %v, want %v", tc.bounds, got, tc.want)
			}
		})
	}
}

// bands returns a w×h image: red in the left quarter, blue in the right
// quarter, green between.
func bands(w, h int) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := green
			switch {
			case x < w/4:
				c = red
			case x >= 3*w/4:
				c = blue
			}
			m.SetRGBA(x, y, c)
		}
	}
	return m
}

func TestFit(t *testing.T) {
	src := bands(400, 200)
	const size = 16
	tests := []struct {
		fit  Fit
		want string // dominant color of each output column: r, g or b
	}{
		{CenterCrop, "gggggggggggggggg"},
		{Squash, "rrrrggggggggbbbb"},
	}
	for _, tc := range tests {
		t.Run(tc.fit.String(), func(t *testing.T) {
			ten, err := ToTensor(src, size, &PreprocessOptions{Fit: tc.fit, Norm: UnitNorm})
			if err != nil {
				t.Fatal(err)
			}
			got := make([]byte, size)
			for x := 0; x < size; x++ {
				best := 0
				for c := 1; c < 3; c++ {
					if ten.At(c, size/2, x) > ten.At(best, size/2, x) {
						best = c
					}
				}
				got[x] = "rgb"[best]
			}
			// The column straddling a band edge may go either way.
			for x := range got {
				if got[x] != tc.want[x] && !(x > 0 && tc.want[x-1] != tc.want[x]) {
					t.Errorf("columns %s, want %s", got, tc.want)
					break
				}
			}
		})
	}
}

func TestPreprocessAlpha(t *testing.T) {
	halfRed := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	for i := 0; i < len(halfRed.Pix); i += 4 {
		copy(halfRed.Pix[i:], []byte{255, 0, 0, 128})
	}
	tests := []struct {
		name string
		bg   color.Color
		want [3]float64 // bytes
	}{
		{"default-white", nil, [3]float64{255, 127, 127}},
		{"black", color.Black, [3]float64{128, 0, 0}},
		{"gray", color.Gray{100}, [3]float64{128 + 50, 50, 50}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// CatmullRom overshoots on edges; a flat image must stay flat.
			ten, err := ToTensor(halfRed, 4, &PreprocessOptions{Background: tc.bg, Norm: ByteNorm, Interpolator: draw.CatmullRom})
			if err != nil {
				t.Fatal(err)
			}
			for c := 0; c < 3; c++ {
				for _, v := range ten.Plane(c) {
					if math.Abs(float64(v)-tc.want[c]) > 1.01 {
						t.Fatalf("channel %d value %v, want %v ± 1", c, v, tc.want[c])
					}
				}
			}
		})
	}
}

// TestDownscaleAntialias shrinks a one-pixel checkerboard by 2: an
// antialiasing filter averages it to mid-gray; point sampling would keep
// only the black or only the white pixels.
func TestDownscaleAntialias(t *testing.T) {
	src := image.NewGray(image.Rect(0, 0, 64, 64))
	for y := 0; y < 64; y++ {
		for x := 0; x < 64; x++ {
			if (x+y)%2 == 0 {
				src.SetGray(x, y, color.Gray{255})
			}
		}
	}
	for _, interp := range []draw.Interpolator{nil, draw.BiLinear, draw.CatmullRom} {
		ten, err := ToTensor(src, 32, &PreprocessOptions{Norm: UnitNorm, Interpolator: interp})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range ten.Data {
			if math.Abs(float64(v)-0.5) > 0.05 {
				t.Fatalf("%T: value %d is %v, want 0.5 ± 0.05", interp, i, v)
			}
		}
	}
}

// TestFastPathsMatchGeneric checks that the type-specific resampling loops
// agree with the generic color.Color path.
func TestFastPathsMatchGeneric(t *testing.T) {
	photo := texture(120, 90)
	ycc, _, err := Decode(bytes.NewReader(encodeJPEG(t, photo, 90)), nil)
	if err != nil {
		t.Fatal(err)
	}
	nrgba := image.NewNRGBA(photo.Rect)
	draw.Draw(nrgba, nrgba.Rect, photo, image.Point{}, draw.Src)
	gray := image.NewGray(photo.Rect)
	draw.Draw(gray, gray.Rect, photo, image.Point{}, draw.Src)
	tests := []struct {
		name string
		img  image.Image
	}{
		{"ycbcr", ycc},
		{"rgba", photo},
		{"nrgba", nrgba},
		{"gray", gray},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, interp := range []draw.Interpolator{draw.BiLinear, draw.CatmullRom, draw.ApproxBiLinear} {
				opts := &PreprocessOptions{Norm: ByteNorm, Interpolator: interp}
				fast, err := ToTensor(tc.img, 56, opts)
				if err != nil {
					t.Fatal(err)
				}
				slow, err := ToTensor(hidden{tc.img}, 56, opts)
				if err != nil {
					t.Fatal(err)
				}
				worst := 0.0
				for i := range fast.Data {
					worst = math.Max(worst, math.Abs(float64(fast.Data[i]-slow.Data[i])))
				}
				if worst > 1 {
					t.Errorf("%T: fast and generic paths differ by %v levels, want ≤ 1", interp, worst)
				}
			}
		})
	}
}

func TestResizeMatchesTensor(t *testing.T) {
	p, err := NewPreprocessor(32, &PreprocessOptions{Norm: MobileNetNorm})
	if err != nil {
		t.Fatal(err)
	}
	a, err := p.Resize(texture(100, 70))
	if err != nil {
		t.Fatal(err)
	}
	keep := bytes.Clone(a.Pix)
	ten, err := p.Tensor(bands(100, 70)) // must not disturb a
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Pix, keep) {
		t.Fatal("Resize result changed by a later call")
	}
	b, err := p.Resize(bands(100, 70))
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < 32; y++ {
		for x := 0; x < 32; x++ {
			c := b.RGBAAt(x, y)
			if c.A != 255 {
				t.Fatalf("Resize pixel (%d,%d) alpha %d, want opaque", x, y, c.A)
			}
			for ch, v := range []uint8{c.R, c.G, c.B} {
				want := float32(v)/127.5 - 1
				if got := ten.At(ch, y, x); math.Abs(float64(got-want)) > 1e-6 {
					t.Fatalf("tensor (%d,%d,%d) = %v, Resize byte %d gives %v", ch, y, x, got, v, want)
				}
			}
		}
	}
}

func TestTensorIntoDoesNotAllocate(t *testing.T) {
	img, _, err := Decode(bytes.NewReader(encodeJPEG(t, texture(160, 120), 90)), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, interp := range []draw.Interpolator{nil, draw.CatmullRom, draw.ApproxBiLinear} {
		p, err := NewPreprocessor(64, &PreprocessOptions{Interpolator: interp})
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]float32, 3*64*64)
		if err := p.TensorInto(dst, img); err != nil { // warm up: scratch and scaler
			t.Fatal(err)
		}
		allocs := testing.AllocsPerRun(5, func() {
			if err := p.TensorInto(dst, img); err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%T: TensorInto allocated %v times per call, want 0", interp, allocs)
		}
	}
}

func TestPreprocessErrors(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 4, 4))
	tests := []struct {
		name string
		run  func() error
		want error
	}{
		{"size-0", func() error { _, err := NewPreprocessor(0, nil); return err }, ErrOptions},
		{"size-negative", func() error { _, err := NewPreprocessor(-224, nil); return err }, ErrOptions},
		{"size-huge", func() error { _, err := NewPreprocessor(MaxTensorSize+1, nil); return err }, ErrOptions},
		{"fit-unknown", func() error { _, err := NewPreprocessor(8, &PreprocessOptions{Fit: 7}); return err }, ErrOptions},
		{"crop-negative", func() error { _, err := NewPreprocessor(8, &PreprocessOptions{CropFraction: -0.5}); return err }, ErrOptions},
		{"crop-over-1", func() error { _, err := NewPreprocessor(8, &PreprocessOptions{CropFraction: 1.5}); return err }, ErrOptions},
		{"crop-nan", func() error { _, err := NewPreprocessor(8, &PreprocessOptions{CropFraction: math.NaN()}); return err }, ErrOptions},
		{"std-zero", func() error {
			_, err := NewPreprocessor(8, &PreprocessOptions{Norm: Normalization{Std: [3]float32{1, 0, 1}}})
			return err
		}, ErrOptions},
		{"mean-nan", func() error {
			_, err := NewPreprocessor(8, &PreprocessOptions{Norm: Normalization{Mean: [3]float32{float32(math.NaN())}, Std: [3]float32{1, 1, 1}}})
			return err
		}, ErrOptions},
		{"std-inf", func() error {
			_, err := NewPreprocessor(8, &PreprocessOptions{Norm: Normalization{Std: [3]float32{1, 1, float32(math.Inf(1))}}})
			return err
		}, ErrOptions},
		{"nil-image", func() error { _, err := ToTensor(nil, 8, nil); return err }, ErrOptions},
		{"empty-image", func() error { _, err := ToTensor(image.NewRGBA(image.Rect(3, 3, 3, 9)), 8, nil); return err }, ErrDimensions},
		{"into-short", func() error {
			p, _ := NewPreprocessor(8, nil)
			return p.TensorInto(make([]float32, 3*8*8-1), img)
		}, ErrOptions},
		{"into-long", func() error {
			p, _ := NewPreprocessor(8, nil)
			return p.TensorInto(make([]float32, 3*8*8+1), img)
		}, ErrOptions},
		{"resize-nil", func() error { p, _ := NewPreprocessor(8, nil); _, err := p.Resize(nil); return err }, ErrOptions},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
		})
	}
}

func TestTensorAtPanicsOutOfRange(t *testing.T) {
	ten := &Tensor{C: 3, H: 2, W: 2, Data: make([]float32, 12)}
	for _, idx := range [][3]int{{3, 0, 0}, {0, 2, 0}, {0, 0, 2}, {-1, 0, 0}, {0, 1, -1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("At%v did not panic", idx)
				}
			}()
			ten.At(idx[0], idx[1], idx[2])
		}()
	}
}
