package overlay

import (
	"bytes"
	"fmt"
	"image"
	"io"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/vision"
)

// FromResult returns the Caption of a Captioner's result r, made by a
// model with config cfg (Captioner.Model.Config): its words, attention
// grid, β and, for hard attention, the cells read, placed by the fit the
// Captioner prepared the image with. The slices are r's.
func FromResult(r *captioning.Result, cfg caption.Config) Caption {
	h := caption.Hypothesis{Words: r.Words, Attention: r.Attention, Beta: r.Beta}
	c := FromHypothesis(&h, cfg, r.GridH, r.GridW)
	if r.Fit == vision.Squash.String() {
		c.Fit = vision.Squash
	}
	return c
}

// CaptionFile decodes the image at path ("-": standard input, read once)
// and captions it with c, returning the image to draw the figure over
// and the Captioner's result. The captioner decodes the file again (or
// reads its cached features): it takes paths, not images.
func CaptionFile(c *captioning.Captioner, path string, stdin io.Reader) (image.Image, *captioning.Result, error) {
	open := func() io.Reader { return stdin }
	if path == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, nil, fmt.Errorf("reading standard input: %w", err)
		}
		open = func() io.Reader { return bytes.NewReader(data) }
	}
	img, _, err := captioning.LoadImage(path, open())
	if err != nil {
		return nil, nil, err
	}
	r, err := c.Caption(path, open())
	if err != nil {
		return nil, nil, err
	}
	return img, r, nil
}
