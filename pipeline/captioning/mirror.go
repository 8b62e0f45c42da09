package captioning

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captiondata"
)

// Training on mirror images: TrainOptions.MirrorCache holds the features
// of every training image flipped left to right ("caption features
// -mirror"), and each caption of each batch is read with its image or,
// with probability ½, with the mirror image, its "left" and "right"
// swapped. Soft attention over the regions has no notion of where a
// region is, so the mirror's grid alone would teach nothing; what it adds
// is the encoder's other view of the photo, which a convolutional network
// does not map to the mirrored grid of the same features.

// openMirrorCache opens the mirror cache at path and checks it against
// the training cache: every training image, the same encoder, layer and
// grid, and features of mirrored images.
func openMirrorCache(path, dataset, split string, main *captiondata.Cache, images []captiondata.Image) (*captiondata.Cache, error) {
	c, err := captiondata.OpenCache(path)
	if err != nil {
		return nil, fmt.Errorf("%w: mirror cache: %w\nbuild it with:\n\tcaption features -mirror -split %s -o %s %s", ErrCache, err, split, path, dataset)
	}
	s := c.Spec()
	switch err := c.Check(main.Spec()); {
	case err != nil:
		err = fmt.Errorf("%w: mirror cache %s against the training cache %s: %w", ErrCache, path, main.Path(), err)
		c.Close()
		return nil, err
	case !strings.HasSuffix(s.Preprocess, captiondata.MirroredSuffix):
		c.Close()
		return nil, fmt.Errorf("%w: mirror cache %s holds features of unmirrored images (preprocessing %q); build it with:\n\tcaption features -mirror -split %s -o FILE %s",
			ErrCache, path, s.Preprocess, split, dataset)
	case strings.TrimSuffix(s.Preprocess, captiondata.MirroredSuffix) != main.Spec().Preprocess:
		c.Close()
		return nil, fmt.Errorf("%w: mirror cache %s: preprocessing %q, the training cache's %q mirrored: give caption features the same -fit",
			ErrCache, path, s.Preprocess, main.Spec().Preprocess)
	}
	if err := c.CheckImages(images); err != nil {
		c.Close()
		return nil, fmt.Errorf("%w: mirror cache: %w\ncomplete it with:\n\tcaption features -mirror -split %s -o %s %s", ErrCache, err, split, path, dataset)
	}
	return c, nil
}

// withMirrors gives each example its image's record in the mirror cache
// and its tokens as said of the mirror image.
func withMirrors(exs []example, main, mirror *captiondata.Cache, v *caption.Vocab) error {
	left, right := v.ID("left"), v.ID("right")
	for i := range exs {
		e := &exs[i]
		id := main.ID(e.record)
		rec, ok := mirror.Lookup(id)
		if !ok {
			return fmt.Errorf("%w: mirror cache %s: no image %s", ErrCache, mirror.Path(), id)
		}
		e.mirror = rec
		e.mirrorTokens = mirrorWords(e.tokens, left, right)
	}
	return nil
}

// mirrorWords returns tokens with the ids left and right swapped (when
// both are words of the vocabulary, not Unk), or tokens itself if neither
// occurs.
func mirrorWords(tokens []int, left, right int) []int {
	if left == caption.Unk || right == caption.Unk {
		return tokens
	}
	var out []int
	for i, t := range tokens {
		if t != left && t != right {
			continue
		}
		if out == nil {
			out = append([]int(nil), tokens...)
		}
		out[i] = left + right - t
	}
	if out == nil {
		return tokens
	}
	return out
}

// chooseViews marks each caption of the epoch's batches to be read with
// the mirror image with probability ½, by seed and epoch alone (so a
// resumed run replays it); the batches are copies of the examples.
func chooseViews(batches [][]example, seed uint64, epoch int) {
	rng := rand.New(rand.NewPCG(seed^0x6d6972726f72, uint64(epoch))) // "mirror"
	for _, b := range batches {
		for i := range b {
			b[i].mirrored = rng.IntN(2) == 1
		}
	}
}
