package captioning

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/batch"
)

// fixtureImages is the fixture's image directory.
var fixtureImages = filepath.Join(fixtureDir, "images")

// fakeFigures records what a batch asks it to draw; it refuses the
// inputs named in refuse.
type fakeFigures struct {
	refuse string
	mu     sync.Mutex
	drawn  []string // "path: caption (W×H)"
}

func (f *fakeFigures) Path(in batch.Input) (string, error) {
	if filepath.Base(in.Path) == f.refuse {
		return "", fmt.Errorf("%s: refused", in.Path)
	}
	return "figures/" + filepath.Base(in.Path), nil
}

func (f *fakeFigures) Write(in batch.Input, img image.Image, r *Result) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, err := f.Path(in); err != nil {
		return "", err
	}
	f.drawn = append(f.drawn, fmt.Sprintf("%s: %s (%d×%d)", filepath.Base(in.Path), r.Caption, img.Bounds().Dx(), img.Bounds().Dy()))
	return f.Path(in)
}

// tinyCaptioner captions from the fixture's feature cache; its encoder
// does not exist, so an image the cache lacks fails.
func tinyCaptioner(t *testing.T) *Captioner {
	t.Helper()
	c, err := NewCaptioner(context.Background(), CaptionerOptions{
		Model: fixtureModel, Cache: fixtureCache, Encoder: filepath.Join(t.TempDir(), "none.tflite"),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestBatchFactory(t *testing.T) {
	c := tinyCaptioner(t)
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.png")
	uncached := filepath.Join(dir, "uncached.png")
	red, blue := filepath.Join(fixtureImages, "red-square.png"), filepath.Join(fixtureImages, "blue-circle.png")
	png, err := os.ReadFile(red)
	if err != nil {
		t.Fatal(err)
	}
	for path, data := range map[string][]byte{broken: []byte("no image"), uncached: png} {
		if err := os.WriteFile(path, data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	in := func(path string) batch.Input { return batch.Input{Path: path, Root: filepath.Dir(path)} }
	tests := []struct {
		name    string
		figures bool
		input   string
		text    string // the caption, or "" when it fails
		overlay string
		figErr  string // why the figure is missing
		err     string // what the error says
	}{
		{name: "cached", input: red, text: "a red square"},
		{name: "cached with a figure", figures: true, input: red, text: "a red square", overlay: "figures/red-square.png"},
		{name: "figure refused, caption kept", figures: true, input: blue, text: "a blue circle", figErr: "blue-circle.png: refused"},
		{name: "not an image", input: broken, err: broken},
		{name: "no encoder for an image the cache lacks", input: uncached, err: uncached + ": captioning: no image encoder: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			figures := &fakeFigures{refuse: "blue-circle.png"}
			var opts BatchOptions
			if tc.figures {
				opts.Figures = figures
			}
			proc, err := BatchFactory(c, &opts)(0)
			if err != nil {
				t.Fatal(err)
			}
			res, err := proc(context.Background(), in(tc.input))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want one with %q", err, tc.err)
				}
				if len(figures.drawn) != 0 {
					t.Errorf("a failed input was drawn: %q", figures.drawn)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rec, ok := res.Value.(BatchRecord)
			if !ok || res.Text != tc.text || rec.Caption.Caption != tc.text || strings.Join(rec.Words, " ") != tc.text || !rec.Cached || rec.Overlay != tc.overlay ||
				!strings.Contains(rec.OverlayError, tc.figErr) || (tc.figErr == "") != (rec.OverlayError == "") {
				t.Errorf("result %+v; want %q from the cache, figure %q (error %q)", res, tc.text, tc.overlay, tc.figErr)
			}
			if want := []string{"red-square.png: a red square (64×64)"}; tc.figures && tc.figErr == "" && !slices.Equal(figures.drawn, want) {
				t.Errorf("drawn %q, want %q", figures.drawn, want)
			}
		})
	}
	t.Run("abandoned before it starts", func(t *testing.T) {
		proc, err := BatchFactory(c, nil)(0)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := proc(ctx, in(red)); !errors.Is(err, context.Canceled) {
			t.Errorf("error %v, want %v", err, context.Canceled)
		}
	})
}

// TestBatchFactoryNeedsEncoder: without a cache every image needs the
// encoder, so a missing one fails the batch as its workers start.
func TestBatchFactoryNeedsEncoder(t *testing.T) {
	c, err := NewCaptioner(context.Background(), CaptionerOptions{Model: fixtureModel, Encoder: filepath.Join(t.TempDir(), "none.tflite")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := BatchFactory(c, nil)(0); err == nil || !strings.Contains(err.Error(), "none.tflite") {
		t.Errorf("starting a worker: %v, want the missing encoder named", err)
	}
}

func TestBatchResult(t *testing.T) {
	res := BatchResult(&Result{Caption: "", Finished: true}, "")
	if rec := res.Value.(BatchRecord); rec.Words == nil || len(rec.Words) != 0 {
		t.Errorf("words of an empty caption: %#v, want empty, not nil (JSON [])", rec.Words)
	}
	if got, want := ModelID(""), caption.DefaultID; got != want {
		t.Errorf("ModelID(\"\") = %q, want %q", got, want)
	}
	if got := ModelID("runs/best.safetensors"); got != "runs/best.safetensors" {
		t.Errorf("ModelID of a file = %q, want the path", got)
	}
}

// ExampleBatchFactory captions a directory with two workers, a txt file
// per image below an output directory.
func ExampleBatchFactory() {
	dir := filepath.Join("..", "..", "testdata", "caption")
	model := filepath.Join(dir, "tiny.safetensors")
	c, err := NewCaptioner(context.Background(), CaptionerOptions{
		Model: model,
		Cache: filepath.Join(dir, "features-7x7.safetensors"), // these images need no encoder
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	col, err := batch.Collect([]string{filepath.Join(dir, "images")}, &batch.CollectOptions{Accept: batch.IsImage})
	if err != nil {
		fmt.Println(err)
		return
	}
	out, err := os.MkdirTemp("", "captions")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(out)
	sum, err := batch.Run(context.Background(), col.Inputs, BatchFactory(c, nil), &batch.Options{
		Jobs: 2, Sidecar: batch.SidecarTXT, OutDir: out, Model: ModelID(model),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sum.Done, "images captioned")
	for _, name := range []string{"blue-circle.txt", "green-triangle.txt"} {
		text, _ := os.ReadFile(filepath.Join(out, name))
		fmt.Printf("%s: %s", name, text)
	}
	// Output:
	// 6 images captioned
	// blue-circle.txt: a blue circle
	// green-triangle.txt: a green triangle
}
