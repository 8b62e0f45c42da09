package vision_test

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/attend-go/attend/vision"
)

// overlayPhoto is a stand-in for a decoded 640×480 photo.
func overlayPhoto() image.Image {
	m := image.NewRGBA(image.Rect(0, 0, 640, 480))
	draw.Draw(m, m.Rect, image.NewUniform(color.RGBA{90, 140, 200, 255}), image.Point{}, draw.Src)
	return m
}

// peakedAttention returns a 7×7 attention distribution peaked at cell (r, c).
func peakedAttention(r, c int) []float32 {
	w := make([]float32, 49)
	for i := range w {
		w[i] = 0.5 / 48
	}
	w[r*7+c] = 0.5
	return w
}

func ExampleOverlay() {
	// The caption model saw the central 480×480 square (vision.CenterCrop,
	// the Preprocessor's default), resized to 224×224, as a 7×7 grid.
	out, err := vision.Overlay(overlayPhoto(), peakedAttention(1, 5), 7, 7, &vision.OverlayOptions{Fit: vision.CenterCrop})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("overlay", out.Bounds().Dx(), "×", out.Bounds().Dy())
	// Output: overlay 640 × 480
}

func ExampleOverlayPanels() {
	caption := []string{"a", "dog", "runs"}
	var panels []vision.Panel
	for i, word := range caption {
		panels = append(panels, vision.Panel{
			Word:    word,
			Weights: peakedAttention(3, 2+i),
			Beta:    float32(math.NaN()), // no gate to show
			Peak:    true,
		})
	}
	fig, err := vision.OverlayPanels(overlayPhoto(), panels, 7, 7, &vision.PanelsOptions{Title: "a dog runs"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(fig.Bounds().Dx() > 4*224, fig.Bounds().Dy() > 168)

	// Weights that are not a distribution are refused, naming the word.
	panels[1].Weights[0] = float32(math.NaN())
	_, err = vision.OverlayPanels(overlayPhoto(), panels, 7, 7, nil)
	fmt.Println(err)
	// Output:
	// true true
	// vision: panel 1 ("dog"): invalid attention weights: weight of cell (0, 0) is NaN
}

func ExampleOverlayGIF() {
	panels := []vision.Panel{
		{Word: "a", Weights: peakedAttention(3, 3)},
		{Word: "cat", Weights: peakedAttention(2, 4)},
	}
	g, err := vision.OverlayGIF(overlayPhoto(), panels, 7, 7, &vision.GIFOptions{Delay: 150})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Write it with gif.EncodeAll(w, g).
	fmt.Println(len(g.Image), "frames,", g.Delay[0], "hundredths of a second each")
	// Output: 3 frames, 150 hundredths of a second each
}

func ExampleHeatmap() {
	// A 2×2 grid drawn on 4×4 pixels, cell by cell.
	w := []float32{0.1, 0.2, 0.3, 0.4}
	h, err := vision.Heatmap(w, 2, 2, 4, 4, &vision.HeatmapOptions{Smoothing: vision.SmoothNearest, Max: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for y := range 4 {
		fmt.Println(h.Values[y*4 : y*4+4])
	}
	// Output:
	// [0.1 0.1 0.2 0.2]
	// [0.1 0.1 0.2 0.2]
	// [0.3 0.3 0.4 0.4]
	// [0.3 0.3 0.4 0.4]
}
