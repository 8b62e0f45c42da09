package captiondata

import (
	"fmt"
	"strings"
)

// Spec says what the features in a cache are: which encoder made them,
// from which feature map, of what shape, after what preprocessing.
type Spec struct {
	// Encoder is the SHA-256 (lower-case hex) of the encoder model file.
	Encoder string
	// Layer names the feature map: a vision.Grid name ("GridFinal",
	// "GridBlock13").
	Layer string
	// H, W and D are the grid's height, width and depth: each image has
	// L = H·W regions (row y·W+x is cell (x, y)) of D channels.
	H, W, D int
	// Preprocess says how images became encoder inputs, such as
	// "CenterCrop 224". It is recorded for people; Check ignores it
	// (images already of the input size, like the project's Flickr8k
	// copy, come out the same either way).
	Preprocess string
}

// Regions returns L = H·W, the number of feature vectors per image.
func (s Spec) Regions() int { return s.H * s.W }

// Values returns L·D, the number of values per image.
func (s Spec) Values() int { return s.H * s.W * s.D }

// GridString returns the grid shape as "HxWxD", as in the cache header.
func (s Spec) GridString() string { return fmt.Sprintf("%dx%dx%d", s.H, s.W, s.D) }

// validate checks that s can describe a cache.
func (s Spec) validate() error {
	switch {
	case !isSHA256(s.Encoder):
		return fmt.Errorf("encoder SHA-256 %q is not 64 lower-case hex digits", clip(s.Encoder))
	case s.Layer == "" || strings.ContainsAny(s.Layer, "\x00\n"):
		return fmt.Errorf("layer name %q is empty or has control characters", clip(s.Layer))
	case s.H < 1 || s.W < 1 || s.D < 1 || s.H > 1<<12 || s.W > 1<<12 || s.D > 1<<16:
		return fmt.Errorf("grid %s: want 1 ≤ H, W ≤ 4096 and 1 ≤ D ≤ 65536", s.GridString())
	}
	return nil
}

// mismatch describes how got differs from want in what Check compares:
// encoder, layer and grid shape. It returns "" if they agree.
func mismatch(got, want Spec) string {
	var diffs []string
	if got.Encoder != want.Encoder {
		diffs = append(diffs, fmt.Sprintf("encoder SHA-256 %s, want %s", got.Encoder, want.Encoder))
	}
	if got.Layer != want.Layer {
		diffs = append(diffs, fmt.Sprintf("layer %s, want %s", got.Layer, want.Layer))
	}
	if got.H != want.H || got.W != want.W || got.D != want.D {
		diffs = append(diffs, fmt.Sprintf("grid %s, want %s", got.GridString(), want.GridString()))
	}
	return strings.Join(diffs, "; ")
}

func isSHA256(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
