package vision_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"

	"github.com/attend-go/attend/vision"
)

// photo stands in for a decoded photo: a 64×48 color gradient.
func photo() image.Image {
	m := image.NewRGBA(image.Rect(0, 0, 64, 48))
	for y := 0; y < 48; y++ {
		for x := 0; x < 64; x++ {
			m.Set(x, y, color.RGBA{uint8(4 * x), uint8(5 * y), uint8(2 * (x + y)), 255})
		}
	}
	return m
}

// An Encoder turns a photo into the feature grid a caption decoder attends
// over. The real encoder comes from LocateEncoder:
//
//	path, err := vision.LocateEncoder(ctx, &vision.LocateOptions{Path: *encoderFlag})
//	enc, err := vision.LoadEncoder(path, nil)
//
// and gives a 7×7×1280 grid; this example runs a 10×10-input model of the
// same shape made by the tests, so that it needs no download.
func ExampleEncoder() {
	enc, err := vision.LoadEncoder("testdata/tiny_mobilenet.tflite", nil)
	if err != nil {
		log.Fatal(err)
	}
	pre, err := enc.NewPreprocessor(nil) // InputSize×InputSize, the model's normalization
	if err != nil {
		log.Fatal(err)
	}
	x, err := pre.Tensor(photo())
	if err != nil {
		log.Fatal(err)
	}
	features, err := enc.Features(nil, x)
	if err != nil {
		log.Fatal(err)
	}
	h, w, d := enc.GridShape()
	fmt.Printf("input %d×%d, grid %d×%d×%d: %d regions × %d channels = %d values\n",
		enc.InputSize(), enc.InputSize(), h, w, d, h*w, d, len(features))
	// Output: input 10×10, grid 3×3×16: 9 regions × 16 channels = 144 values
}

// Encode runs the network once for both the feature grid and the class
// probabilities; GridBlock13 selects the finer, earlier grid.
func ExampleEncoder_Encode() {
	enc, err := vision.LoadEncoder("testdata/tiny_mobilenet.tflite", &vision.EncoderOptions{Grid: vision.GridBlock13})
	if err != nil {
		log.Fatal(err)
	}
	pre, err := enc.NewPreprocessor(nil)
	if err != nil {
		log.Fatal(err)
	}
	x, err := pre.Tensor(photo())
	if err != nil {
		log.Fatal(err)
	}
	features, probs, err := enc.Encode(x, nil, nil)
	if err != nil {
		log.Fatal(err)
	}
	h, w, d := enc.GridShape()
	fmt.Printf("%v: %d×%d×%d, %d values; %d class probabilities\n", enc.Grid(), h, w, d, len(features), len(probs))
	// Output: GridBlock13: 5×5×8, 200 values; 5 class probabilities
}

func ExampleTopK() {
	labels := []string{"background", "tench", "goldfish", "great white shark"}
	probs := []float32{0.05, 0.15, 0.7, 0.1}
	for _, p := range vision.TopK(probs, labels, 2) {
		fmt.Printf("%d %s %.2f\n", p.Index, p.Label, p.Prob)
	}
	// Output:
	// 2 goldfish 0.70
	// 1 tench 0.15
}

// LocateEncoder downloads the model into the cache on first use and checks
// its SHA-256. Here a loopback server stands in for GitHub.
func ExampleLocateEncoder() {
	model := []byte("stand-in for the 3.6 MB model")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(model)
	}))
	defer srv.Close()
	sum := sha256.Sum256(model)
	cache, err := os.MkdirTemp("", "attend-cache")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(cache)

	opts := &vision.LocateOptions{
		Getenv:   func(string) string { return "" }, // ignore $ATTEND_ENCODER here
		CacheDir: cache,
		URL:      srv.URL,
		SHA256:   hex.EncodeToString(sum[:]),
	}
	path, err := vision.LocateEncoder(context.Background(), opts)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(filepath.Base(path))
	// Output: mobilenet_v2_1.0_224_quant.tflite
}
