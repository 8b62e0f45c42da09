package captioning

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captiondata"
)

// example is one training caption: its image's record in the feature
// cache and its word ids.
type example struct {
	record int   // the image's record in the cache
	tokens []int // word ids, without Start and End
	// With a mirror cache (mirror.go): the image's record there and
	// tokens as said of the mirror image; mirrored reads those.
	mirror       int
	mirrorTokens []int
	mirrored     bool
}

// openCache opens the feature cache and checks that it holds every image
// of the sets, telling the user how to build or complete it otherwise.
func openCache(path, dataset, splits string, sets ...[]captiondata.Image) (*captiondata.Cache, error) {
	if path == "" {
		return nil, fmt.Errorf("%w: no feature cache given; build one with:\n\tcaption features -split %s -o FILE %s", ErrCache, splits, dataset)
	}
	c, err := captiondata.OpenCache(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w\nbuild it with:\n\tcaption features -split %s -o %s %s", ErrCache, err, splits, path, dataset)
	}
	for _, set := range sets {
		if err := c.CheckImages(set); err != nil {
			c.Close()
			return nil, fmt.Errorf("%w: %w\ncomplete it with:\n\tcaption features -split %s -o %s %s", ErrCache, err, splits, path, dataset)
		}
	}
	return c, nil
}

// checkGrid reports a model whose grid (L, D) is not the cache's.
func checkGrid(m caption.Searcher, c *captiondata.Cache) error {
	s := c.Spec()
	if L, D := m.Grid(); L != s.Regions() || D != s.D {
		return fmt.Errorf("%w: the model reads %d regions of %d features, the cache %s holds %s (%d regions)",
			ErrCache, L, D, c.Path(), s.GridString(), s.Regions())
	}
	return nil
}

// featuresNote describes a cache's features for a model file's metadata.
func featuresNote(c *captiondata.Cache) string {
	s := c.Spec()
	return fmt.Sprintf("grid %s layer %s preprocess %q encoder_sha256 %s", s.GridString(), s.Layer, s.Preprocess, s.Encoder)
}

// tokenized returns every caption of images as words.
func tokenized(images []captiondata.Image) [][]string {
	var out [][]string
	for _, im := range images {
		for _, c := range im.Captions {
			out = append(out, captiondata.Tokenize(c))
		}
	}
	return out
}

// examples turns the captions of images into training examples, skipping
// captions with no word or more than maxWords words; it returns how many
// it skipped.
func examples(images []captiondata.Image, c *captiondata.Cache, v *caption.Vocab, maxWords int) ([]example, int) {
	var out []example
	skipped := 0
	for _, im := range images {
		rec, ok := c.Lookup(im.ID)
		if !ok { // openCache checked every image
			panic("captioning: image " + im.ID + " vanished from the cache")
		}
		for _, cap := range im.Captions {
			words := captiondata.Tokenize(cap)
			if len(words) == 0 || len(words) > maxWords {
				skipped++
				continue
			}
			out = append(out, example{record: rec, tokens: v.Encode(words)})
		}
	}
	return out, skipped
}

// planEpoch groups captions of equal length into batches (sorted by
// length, ties in random order, so that batches vary between epochs),
// drops the last partial batch of the epoch and shuffles the batch order.
// The plan depends only on seed and epoch, so a resumed run replays it.
func planEpoch(exs []example, B int, seed uint64, epoch int) [][]example {
	rng := rand.New(rand.NewPCG(seed, uint64(epoch)))
	order := rng.Perm(len(exs))
	slices.SortStableFunc(order, func(a, b int) int { return len(exs[a].tokens) - len(exs[b].tokens) })
	var out [][]example
	for i := 0; i+B <= len(order); i += B {
		batch := make([]example, B)
		for j := range B {
			batch[j] = exs[order[i+j]]
		}
		out = append(out, batch)
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// featureReader reads batches of features from the cache (and the
// mirror cache: mirror.go) into reused buffers.
type featureReader struct {
	cache, mirror *captiondata.Cache
	bufs          [][]float32
}

// batch returns the model examples of exs, their features read from the
// cache.
func (r *featureReader) batch(exs []example) ([]caption.Example, error) {
	for len(r.bufs) < len(exs) {
		r.bufs = append(r.bufs, nil)
	}
	out := make([]caption.Example, len(exs))
	for i, e := range exs {
		cache, rec, tokens := r.cache, e.record, e.tokens
		if e.mirrored {
			cache, rec, tokens = r.mirror, e.mirror, e.mirrorTokens
		}
		f, err := cache.Features(rec, r.bufs[i])
		if err != nil {
			return nil, err
		}
		r.bufs[i] = f
		out[i] = caption.Example{Features: f, Tokens: tokens}
	}
	return out, nil
}

// ErrCache marks a feature cache that is missing, incomplete or made for
// another model; the message says how to build it.
var ErrCache = errors.New("captioning: feature cache")
