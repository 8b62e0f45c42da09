package captiondata

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/vision"
)

// TestEncoderExtractorShared builds caches of the fixture images with the
// real MobileNetV2 and compares them with the encoder run directly.
func TestEncoderExtractorShared(t *testing.T) {
	model := shareddata.Path(t, shareddata.EncoderFile)
	images, err := Read(fixtureImages, "", "")
	if err != nil {
		t.Fatal(err)
	}
	// GridChoices states the shapes without the model: check them.
	for _, tc := range GridChoices {
		t.Run(tc.Name, func(t *testing.T) {
			x, err := LoadExtractor(model, &ExtractorOptions{Grid: tc.Grid})
			if err != nil {
				t.Fatal(err)
			}
			want := Spec{Encoder: vision.EncoderSHA256, Layer: tc.Grid.String(), H: tc.H, W: tc.W, D: tc.D, Preprocess: "Squash 224"}
			if x.Spec() != want {
				t.Fatalf("Spec %+v, want %+v", x.Spec(), want)
			}
			path := filepath.Join(t.TempDir(), "c.safetensors")
			if _, err := BuildCache(context.Background(), path, images, x, &BuildOptions{Workers: 2}); err != nil {
				t.Fatal(err)
			}
			c, err := OpenCache(path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Check(want); err != nil {
				t.Error(err)
			}
			enc, err := vision.LoadEncoder(model, &vision.EncoderOptions{Grid: tc.Grid, Threads: 1})
			if err != nil {
				t.Fatal(err)
			}
			pre, err := enc.NewPreprocessor(nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, im := range images {
				img, _, err := vision.DecodeFile(im.Path, nil)
				if err != nil {
					t.Fatal(err)
				}
				in, err := pre.Tensor(img)
				if err != nil {
					t.Fatal(err)
				}
				ref, err := enc.Features(nil, in)
				if err != nil {
					t.Fatal(err)
				}
				got, err := c.Features(i, nil)
				if err != nil {
					t.Fatal(err)
				}
				nonzero := 0
				for k := range ref {
					// ReLU6 outputs in [0, 6]: float16 keeps them to
					// half an ulp, at most 2⁻⁹ near 6.
					if d := math.Abs(float64(got[k] - ref[k])); d > math.Max(float64(ref[k])*0x1p-11, 0x1p-25) {
						t.Fatalf("%s: value %d is %v, encoder gives %v", im.ID, k, got[k], ref[k])
					}
					if ref[k] != 0 {
						nonzero++
					}
				}
				if nonzero == 0 {
					t.Errorf("%s: all features zero", im.ID)
				}
			}
		})
	}
}

func TestLoadExtractorErrors(t *testing.T) {
	for _, tc := range []struct {
		name, path string
		err        error
		msg        string
	}{
		{"absent", filepath.Join("testdata", "absent.tflite"), nil, "captiondata: encoder: open testdata"},
		{"not a model", fixtureCOCO, vision.ErrModel, "captiondata: encoder " + fixtureCOCO},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LoadExtractor(tc.path, nil)
			if err == nil || !strings.Contains(err.Error(), tc.msg) || tc.err != nil && !errors.Is(err, tc.err) {
				t.Errorf("error %v, want %v containing %q", err, tc.err, tc.msg)
			}
		})
	}
}

// BenchmarkExtract is the extraction cost of one Flickr8k image (JPEG
// decode, preprocessing, MobileNetV2 up to the grid) on one goroutine.
func BenchmarkExtract(b *testing.B) {
	model := shareddata.Path(b, shareddata.EncoderFile)
	images, err := ReadFlickr8k(shareddata.Path(b, "flickr8k"), "dev")
	if err != nil {
		b.Fatal(err)
	}
	for _, grid := range []vision.Grid{vision.GridFinal, vision.GridBlock13} {
		b.Run(grid.String(), func(b *testing.B) {
			x, err := LoadExtractor(model, &ExtractorOptions{Grid: grid})
			if err != nil {
				b.Fatal(err)
			}
			var dst []float32
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if dst, err = x.Extract(dst, images[i%len(images)].Path); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "images/s")
		})
	}
}

// BenchmarkCacheFeatures reads one record (ReadAt, CRC-32C, float16 to
// float32) from a cache of 64 images, at both grid sizes.
func BenchmarkCacheFeatures(b *testing.B) {
	for _, g := range []struct{ h, w, d int }{{7, 7, 1280}, {14, 14, 576}} {
		b.Run(fmt.Sprintf("%dx%dx%d", g.h, g.w, g.d), func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "c.safetensors")
			const n = 64
			if _, err := BuildCache(context.Background(), path, fakeImages(n), newFake(g.h, g.w, g.d), nil); err != nil {
				b.Fatal(err)
			}
			c, err := OpenCache(path)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			dst := make([]float32, g.h*g.w*g.d)
			b.SetBytes(int64(len(dst) * halfBytes))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if dst, err = c.Features(i%n, dst); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMirroredExtractor checks that ExtractorOptions.Mirror gives the
// features of the image flipped left to right, and says so in the Spec.
func TestMirroredExtractor(t *testing.T) {
	model := shareddata.Path(t, shareddata.EncoderFile)
	// A photo: the fixture images are plain squares, alike mirrored.
	photo := filepath.Join("..", "..", "testdata", "photos", "chelsea.jpg")
	x, err := LoadExtractor(model, &ExtractorOptions{Mirror: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := x.Spec().Preprocess, "Squash 224"+MirroredSuffix; got != want {
		t.Errorf("Spec().Preprocess %q, want %q", got, want)
	}
	if got := x.Clone().Spec(); got != x.Spec() {
		t.Errorf("the clone's Spec %+v, want %+v", got, x.Spec())
	}
	enc, err := vision.LoadEncoder(model, &vision.EncoderOptions{Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	pre, err := enc.NewPreprocessor(nil)
	if err != nil {
		t.Fatal(err)
	}
	// At the input size already, so that no scaling blurs the comparison.
	full, _, err := vision.DecodeFile(photo, nil)
	if err != nil {
		t.Fatal(err)
	}
	img, err := pre.Resize(full)
	if err != nil {
		t.Fatal(err)
	}
	photo = filepath.Join(t.TempDir(), "photo.png")
	if err := writePNG(photo, img); err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	flipped := image.NewRGBA(b)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for px := b.Min.X; px < b.Max.X; px++ {
			flipped.Set(b.Max.X-1-(px-b.Min.X), y, img.At(px, y))
		}
	}
	for _, tc := range []struct {
		name   string
		img    image.Image
		differ bool
	}{{"the flipped image", flipped, false}, {"the image itself", img, true}} {
		in, err := pre.Tensor(tc.img)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := enc.Features(nil, in)
		if err != nil {
			t.Fatal(err)
		}
		got, err := x.Extract(nil, photo)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for k := range ref {
			worst = math.Max(worst, math.Abs(float64(got[k]-ref[k])))
		}
		if same := worst == 0; same == tc.differ {
			t.Errorf("mirrored features against those of %s: largest difference %v", tc.name, worst)
		}
	}
}

// writePNG saves img as a PNG file.
func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
