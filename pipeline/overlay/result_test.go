package overlay

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/vision"
)

func TestFromResult(t *testing.T) {
	tc := testCaption()
	for _, fit := range []vision.Fit{vision.Squash, vision.CenterCrop} {
		r := &captioning.Result{Words: tc.Words, Attention: tc.Attention, Beta: []float32{0.1, 0.2, 0.3, 0.4}, GridH: 3, GridW: 4, Fit: fit}
		c := FromResult(r, caption.Config{})
		if err := c.Check(); err != nil {
			t.Fatal(err)
		}
		if c.Fit != fit || c.Rows != 3 || c.Cols != 4 || c.Text() != "a red ball flies" || len(c.Beta) != 4 || c.Hard {
			t.Errorf("%v: %+v", fit, c)
		}
	}
}

// TestCaptionInputFigure captions a fixture image from the tiny model's
// feature cache (no encoder needed), keeping the decoded image for the
// figure.
func TestCaptionInputFigure(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "caption")
	c, err := captioning.NewCaptioner(context.Background(), captioning.CaptionerOptions{
		Model: filepath.Join(dir, "tiny.safetensors"), Cache: filepath.Join(dir, "features-7x7.safetensors"),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.CaptionInput(context.Background(), &captioning.Input{Path: filepath.Join(dir, "images", "red-square.png"), KeepImage: true})
	if err != nil {
		t.Fatal(err)
	}
	img := r.Image
	if img.Bounds().Dx() != 64 || r.Caption != "a red square" || !r.Cached {
		t.Errorf("image %v, caption %q, cached %v", img.Bounds(), r.Caption, r.Cached)
	}
	capt := FromResult(r, c.Model.Config)
	if err := Write(filepath.Join(t.TempDir(), "fig.png"), img, &capt, nil); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "images", "nope.png")
	if _, err := c.CaptionInput(context.Background(), &captioning.Input{Path: missing, KeepImage: true}); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing file: %v", err)
	}
}
