package overlay

import (
	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captioning"
)

// FromResult returns the Caption of a Captioner's result r, made by a
// model with config cfg (Captioner.Model.Config): its words, attention
// grid, β, the sentinel weights of adaptive attention and, for hard attention, the cells read, placed by the fit the
// Captioner prepared the image with. The slices are r's.
func FromResult(r *captioning.Result, cfg caption.Config) Caption {
	c := fromWeights(r.Words, r.Attention, r.Beta, r.Sentinel, cfg, r.GridH, r.GridW)
	c.Fit = r.Fit
	return c
}
