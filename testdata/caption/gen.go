//go:build ignore

// gen draws the tiny caption fixture: six 64×64 PNG shapes in plain
// colours on white, two captions each, in the Flickr8k layout
// (captions.txt, train.txt, dev.txt, test.txt, images/). Run it from this
// directory: go run gen.go. The feature cache beside it is then
//
//	caption features -encoder ../../../shared/data/mobilenet/mobilenet_v2_1.0_224_quant.tflite -o features-7x7.safetensors .
//
// and tiny.safetensors is written by the captioning package's
// TestTinyFixture with -update.
package main

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"os"
	"path/filepath"
	"strings"
)

type shape struct {
	name     string
	col      color.RGBA
	kind     string // square, circle, triangle
	split    string
	captions [2]string
}

var shapes = []shape{
	{"red-square", color.RGBA{220, 30, 30, 255}, "square", "train", [2]string{"A red square on a white background.", "a red square"}},
	{"blue-circle", color.RGBA{30, 60, 220, 255}, "circle", "train", [2]string{"A blue circle on a white background.", "a blue circle"}},
	{"green-triangle", color.RGBA{30, 170, 60, 255}, "triangle", "train", [2]string{"A green triangle on a white background.", "a green triangle"}},
	{"yellow-square", color.RGBA{240, 210, 20, 255}, "square", "train", [2]string{"A yellow square on a white background.", "a yellow square"}},
	{"red-circle", color.RGBA{220, 30, 30, 255}, "circle", "dev", [2]string{"A red circle on a white background.", "a red circle"}},
	{"blue-square", color.RGBA{30, 60, 220, 255}, "square", "test", [2]string{"A blue square on a white background.", "a blue square"}},
}

func inside(kind string, x, y int) bool {
	fx, fy := float64(x)+0.5, float64(y)+0.5
	switch kind {
	case "square":
		return fx >= 14 && fx < 50 && fy >= 14 && fy < 50
	case "circle":
		dx, dy := fx-32, fy-32
		return dx*dx+dy*dy < 20*20
	default: // triangle, apex up
		return fy >= 12 && fy < 52 && absf(fx-32) < (fy-12)/2
	}
}

func absf(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func main() {
	if err := os.MkdirAll("images", 0o755); err != nil {
		log.Fatal(err)
	}
	var captions strings.Builder
	splits := map[string]*strings.Builder{"train": {}, "dev": {}, "test": {}}
	for _, s := range shapes {
		img := image.NewRGBA(image.Rect(0, 0, 64, 64))
		for y := 0; y < 64; y++ {
			for x := 0; x < 64; x++ {
				c := color.RGBA{255, 255, 255, 255}
				if inside(s.kind, x, y) {
					c = s.col
				}
				img.SetRGBA(x, y, c)
			}
		}
		file := s.name + ".png"
		f, err := os.Create(filepath.Join("images", file))
		if err != nil {
			log.Fatal(err)
		}
		if err := png.Encode(f, img); err != nil {
			log.Fatal(err)
		}
		if err := f.Close(); err != nil {
			log.Fatal(err)
		}
		for i, c := range s.captions {
			fmt.Fprintf(&captions, "%s#%d\t%s\n", file, i, c)
		}
		fmt.Fprintln(splits[s.split], file)
	}
	write := func(name, text string) {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	write("captions.txt", captions.String())
	for name, b := range splits {
		write(name+".txt", b.String())
	}
}
