package captiondata

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/attend-go/attend/vision"
)

// GridChoice is a feature map of the default encoder (MobileNetV2 1.0/224)
// under the name a user types, with its shape, known without loading the
// model (GridOf gives another encoder's).
type GridChoice struct {
	Name    string // "7x7" or "14x14"
	Grid    vision.Grid
	H, W, D int
}

// GridChoices are the feature maps LoadExtractor offers, the default
// first.
var GridChoices = []GridChoice{
	{"7x7", vision.GridFinal, 7, 7, 1280},
	{"14x14", vision.GridBlock13, 14, 14, 576},
}

// ParseGrid returns the GridChoice called name.
func ParseGrid(name string) (GridChoice, error) {
	var names []string
	for _, g := range GridChoices {
		if g.Name == name {
			return g, nil
		}
		names = append(names, g.Name)
	}
	return GridChoice{}, fmt.Errorf("captiondata: grid %q: want %s", name, strings.Join(names, " or "))
}

// GridOf returns g as the encoder named by encoder (a known encoder's
// name, vision.FindEncoder) has it: its depth differs between encoders
// (14×14 is 576 deep in MobileNetV2, 768 in MobileNet-EdgeTPU). For any
// other encoder, a file, g is returned as it is.
func GridOf(g GridChoice, encoder string) GridChoice {
	if k := vision.FindEncoder(encoder); k != nil && encoder != "" {
		g.D = k.Depth(g.Grid)
	}
	return g
}

// ParseFit returns the vision.Fit called "crop" (vision.CenterCrop) or
// "squash" (vision.Squash).
func ParseFit(name string) (vision.Fit, error) {
	switch name {
	case "crop":
		return vision.CenterCrop, nil
	case "squash":
		return vision.Squash, nil
	}
	return 0, fmt.Errorf("captiondata: fit %q: want crop or squash", name)
}

// LocateEncoder finds the encoder model file as vision.LocateEncoder does:
// path if not empty (a file, or a known encoder's name such as
// "edgetpu"), else $ATTEND_ENCODER, else the user cache, else a download
// (whose progress goes to progress, if not nil) of want (nil:
// MobileNetV2).
func LocateEncoder(ctx context.Context, path string, want *vision.KnownEncoder, progress io.Writer) (string, error) {
	return vision.LocateEncoder(ctx, &vision.LocateOptions{Path: path, Known: want, Progress: progress})
}
