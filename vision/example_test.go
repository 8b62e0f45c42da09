package vision_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"

	"github.com/attend-go/attend/vision"
)

// pngBytes encodes a small gradient as PNG, standing in for a file.
func pngBytes(w, h int) []byte {
	m := image.NewGray(image.Rect(0, 0, w, h))
	for i := range m.Pix {
		m.Pix[i] = uint8(i)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		log.Fatal(err)
	}
	return b.Bytes()
}

func ExampleDecode() {
	img, format, err := vision.Decode(bytes.NewReader(pngBytes(64, 48)), nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(format, img.Bounds().Dx(), "x", img.Bounds().Dy())
	// Output: png 64 x 48
}

func ExampleDecode_errors() {
	_, _, err := vision.Decode(bytes.NewReader([]byte("<!DOCTYPE html>")), nil)
	fmt.Println(errors.Is(err, vision.ErrFormat))
	fmt.Println(err)

	_, _, err = vision.Decode(bytes.NewReader(pngBytes(64, 48)), &vision.DecodeOptions{MaxPixels: 1000})
	fmt.Println(errors.Is(err, vision.ErrTooLarge))
	fmt.Println(err)
	// Output:
	// true
	// vision: unknown image format: text markup (HTML, XML or SVG), not a raster image (supported: JPEG, PNG, GIF, BMP, TIFF, WebP)
	// true
	// vision: image too large: png image is 64x48 = 3072 pixels, over the limit of 1000 pixels
}

func ExampleDecodeFile() {
	img, format, err := vision.DecodeFile("testdata/webp_lossless.webp", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(format, img.Bounds())

	_, _, err = vision.DecodeFile("testdata/missing.jpg", nil)
	fmt.Println(err)
	// Output:
	// webp (0,0)-(16,16)
	// vision: open testdata/missing.jpg: no such file or directory
}

func ExampleToTensor() {
	img, _, err := vision.Decode(bytes.NewReader(pngBytes(64, 48)), nil)
	if err != nil {
		log.Fatal(err)
	}
	t, err := vision.ToTensor(img, 224, &vision.PreprocessOptions{Norm: vision.MobileNetNorm})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(t.C, t.H, t.W, len(t.Data))
	// Output: 3 224 224 150528
}

// A Preprocessor packs a batch into one N×3×224×224 buffer without
// allocating per image.
func ExamplePreprocessor_TensorInto() {
	p, err := vision.NewPreprocessor(224, nil) // ImageNet normalization, center crop
	if err != nil {
		log.Fatal(err)
	}
	images := []image.Image{
		image.NewGray(image.Rect(0, 0, 640, 480)),
		image.NewRGBA(image.Rect(0, 0, 100, 300)), // transparent: white after compositing
	}
	per := 3 * p.Size() * p.Size()
	batch := make([]float32, len(images)*per)
	for i, img := range images {
		if err := p.TensorInto(batch[i*per:(i+1)*per], img); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("black R: %.4f\n", batch[0])
	fmt.Printf("white R: %.4f\n", batch[per])
	// Output:
	// black R: -2.1179
	// white R: 2.2489
}

func ExamplePreprocessor_CropRect() {
	p, err := vision.NewPreprocessor(224, &vision.PreprocessOptions{Fit: vision.CenterCrop, CropFraction: 0.875})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.CropRect(image.Rect(0, 0, 640, 480)))
	// Output: (110,30)-(530,450)
}

func ExampleFlatten() {
	logo := image.NewNRGBA(image.Rect(0, 0, 1, 1))
	logo.SetNRGBA(0, 0, color.NRGBA{R: 255, A: 128}) // half-transparent red
	fmt.Println(vision.Flatten(logo, nil).RGBAAt(0, 0))
	fmt.Println(vision.Flatten(logo, color.Black).RGBAAt(0, 0))
	// Output:
	// {255 127 127 255}
	// {128 0 0 255}
}
