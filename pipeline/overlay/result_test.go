package overlay

import (
	"testing"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/vision"
)

func TestFromResult(t *testing.T) {
	tc := testCaption()
	for _, fit := range []vision.Fit{vision.Squash, vision.CenterCrop} {
		r := &captioning.Result{Words: tc.Words, Attention: tc.Attention, Beta: []float32{0.1, 0.2, 0.3, 0.4}, GridH: 3, GridW: 4, Fit: fit.String()}
		c := FromResult(r, caption.Config{})
		if err := c.Check(); err != nil {
			t.Fatal(err)
		}
		if c.Fit != fit || c.Rows != 3 || c.Cols != 4 || c.Text() != "a red ball flies" || len(c.Beta) != 4 || c.Hard {
			t.Errorf("%v: %+v", fit, c)
		}
	}
}
