package overlay_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"log"
	"os"
	"path/filepath"

	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/pipeline/overlay"
)

// photo stands in for a decoded 640×480 photo.
func photo() image.Image {
	m := image.NewRGBA(image.Rect(0, 0, 640, 480))
	draw.Draw(m, m.Rect, image.NewUniform(color.RGBA{90, 140, 200, 255}), image.Point{}, draw.Src)
	return m
}

// attentionOn returns a 7×7 distribution with half its weight on cell k.
func attentionOn(k int) []float32 {
	w := make([]float32, 49)
	for i := range w {
		w[i] = 0.5 / 48
	}
	w[k] = 0.5
	return w
}

func ExampleRender() {
	c := &overlay.Caption{
		Words:     []string{"a", "dog", "runs"},
		Attention: [][]float32{attentionOn(24), attentionOn(17), attentionOn(38)},
		Beta:      []float32{0.3, 0.9, 0.8},
		Rows:      7, Cols: 7, // MobileNetV2's final grid
	}
	fig, err := overlay.Render(photo(), c, &overlay.Options{Beta: true, Peak: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The photo and three panels, each 224×168, in one row.
	fmt.Println(fig.Bounds().Dx() > 4*224, fig.Bounds().Dy() > 168)

	// A word the caption does not have.
	_, err = overlay.Render(photo(), c, &overlay.Options{Words: []int{5}})
	fmt.Println(err)
	// Output:
	// true true
	// overlay: no such word: word 6 of the 3-word caption "a dog runs"
}

func ExampleSelectWords() {
	c := &overlay.Caption{Words: []string{"a", "dog", "chases", "a", "ball"}}
	for _, sel := range []string{"2", "a", "ball,1", "cat"} {
		words, err := overlay.SelectWords(c, sel)
		fmt.Println(sel, "→", words, err)
	}
	// Output:
	// 2 → [1] <nil>
	// a → [0 3] <nil>
	// ball,1 → [0 4] <nil>
	// cat → [] overlay: no such word: "cat" is not in the 5-word caption "a dog chases a ball"
}

func ExampleDir() {
	photos, _ := os.MkdirTemp("", "photos")
	defer os.RemoveAll(photos)
	out := filepath.Join(photos, "attention")
	d, err := overlay.OpenDir(out, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer d.Close()
	c := &overlay.Caption{Words: []string{"sky"}, Attention: [][]float32{attentionOn(3)}, Rows: 7, Cols: 7}
	// The image trip/beach.jpg found under photos, as batch.Collect
	// reports it: Root photos, Path photos/trip/beach.jpg.
	path, err := d.Write(photos, filepath.Join(photos, "trip", "beach.jpg"), photo(), c)
	fmt.Println(filepath.Rel(photos, path))
	fmt.Println(err)

	// A photo that is in the way is never replaced.
	os.WriteFile(filepath.Join(out, "cliff.png"), []byte("a photo"), 0o644)
	_, err = d.Write(photos, filepath.Join(photos, "cliff.jpg"), photo(), c)
	fmt.Println(errors.Is(err, overlay.ErrExists))
	// Output:
	// attention/trip/beach.png <nil>
	// <nil>
	// true
}

func ExampleEncode() {
	c := &overlay.Caption{Words: []string{"a", "dog"}, Attention: [][]float32{attentionOn(24), attentionOn(17)}, Rows: 7, Cols: 7}
	var png bytes.Buffer // any io.Writer: a file, an HTTP response
	if err := overlay.Encode(&png, photo(), c, nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n", png.Bytes()[1:4])
	// Output:
	// "PNG"
}

// Draw what the caption model looked at, for a caption of the embedded
// model (compiled, not run: captioning needs the image encoder, see
// captioning.EncoderHelp).
func ExampleFromResult() {
	c, err := captioning.NewCaptioner(context.Background(), captioning.CaptionerOptions{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	img, _, err := captioning.LoadImage("../../testdata/photos/chelsea.jpg", nil)
	if err != nil {
		log.Fatal(err)
	}
	r, err := c.CaptionImage(img)
	if err != nil {
		log.Fatal(err)
	}
	fig := overlay.FromResult(r, c.Model.Config)
	f, err := os.Create("chelsea-attention.png")
	if err != nil {
		log.Fatal(err)
	}
	if err := overlay.Encode(f, img, &fig, nil); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
