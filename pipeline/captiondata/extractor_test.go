package captiondata

import (
	"context"
	"errors"
	"fmt"
	"math"
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
