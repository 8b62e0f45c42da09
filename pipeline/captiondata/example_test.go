package captiondata_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/vision"
)

func ExampleRead() {
	images, err := captiondata.Read("testdata/flickr8k", "train,dev", "")
	if err != nil {
		log.Fatal(err)
	}
	for _, im := range images {
		fmt.Println(im.ID, len(im.Captions), strings.Join(captiondata.Tokenize(im.Captions[0]), " "))
	}
	// Output:
	// dog.jpg 2 a dog is running
	// cat.jpg 1 a cat sits on a mat
	// boat.jpg 2 a boat on the water
}

func ExampleTokenize() {
	fmt.Printf("%q\n", captiondata.Tokenize("A dog's T-shirt, 2 balls & a man ."))
	// Output: ["a" "dog" "'s" "t-shirt" "2" "balls" "&" "a" "man"]
}

// meanColor is a toy Extractor: a 1×1 grid holding an image's mean red,
// green and blue. A real one runs a CNN (see LoadExtractor).
type meanColor struct{}

func (meanColor) Spec() captiondata.Spec {
	return captiondata.Spec{Encoder: strings.Repeat("0", 64), Layer: "MeanColor", H: 1, W: 1, D: 3}
}

func (meanColor) Clone() captiondata.Extractor { return meanColor{} }

func (meanColor) Extract(dst []float32, path string) ([]float32, error) {
	img, _, err := vision.DecodeFile(path, nil)
	if err != nil {
		return nil, err
	}
	var sum [3]float64
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			sum[0], sum[1], sum[2] = sum[0]+float64(r), sum[1]+float64(g), sum[2]+float64(bl)
		}
	}
	n := float64(b.Dx()*b.Dy()) * 0xffff
	return append(dst[:0], float32(sum[0]/n), float32(sum[1]/n), float32(sum[2]/n)), nil
}

func ExampleBuildCache() {
	images, err := captiondata.Read("testdata/flickr8k", "dev", "")
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "captiondata")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "dev.safetensors")
	stats, err := captiondata.BuildCache(context.Background(), path, images, meanColor{}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("extracted %d of %d\n", stats.Extracted, stats.Images)

	c, err := captiondata.OpenCache(path)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	i, _ := c.Lookup("boat.jpg")
	feats, err := c.Features(i, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %s grid, mean RGB %.2f\n", c.ID(i), c.Spec().GridString(), feats)
	// Output:
	// extracted 1 of 1
	// boat.jpg: 1x1x3 grid, mean RGB [0.26 0.40 0.71]
}
