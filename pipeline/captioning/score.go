package captioning

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/metrics"
)

// chunk is how many images greedy search decodes in one batch: enough to
// fill the matrix products, few enough that the copies of the
// annotations (chunk·L·D floats, 12 MB at 7×7×1280) stay small.
const chunk = 48

// decodeSet captions images whose features are in the cache, with beam
// search of width beam (1 or less: greedy search, batched), on workers
// goroutines that share the model. It returns one hypothesis per image,
// in order: the search's best, or with rerank (nil: none) the best of its
// beam by the memory's consensus. m is a model or an ensemble.
func decodeSet(ctx context.Context, m caption.Searcher, c *captiondata.Cache, images []captiondata.Image, beam, workers int, opts *caption.SearchOptions, rerank *Reranking) ([]caption.Hypothesis, error) {
	out := make([]caption.Hypothesis, len(images))
	size := chunk
	if beam > 1 {
		size = 1
	}
	type job struct{ lo, hi int }
	jobs := make(chan job)
	errs := make(chan error, max(1, workers))
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ws caption.Workspace
			var bufs [][]float32
			for j := range jobs {
				if err := func() error {
					feats := make([][]float32, 0, j.hi-j.lo)
					for i := j.lo; i < j.hi; i++ {
						rec, ok := c.Lookup(images[i].ID)
						if !ok {
							return fmt.Errorf("%w: %s: no image %s", ErrCache, c.Path(), images[i].ID)
						}
						k := i - j.lo
						if k >= len(bufs) {
							bufs = append(bufs, nil)
						}
						f, err := c.Features(rec, bufs[k])
						if err != nil {
							return err
						}
						bufs[k] = f
						feats = append(feats, f)
					}
					if beam > 1 {
						hyps, err := m.Beam(&ws, feats[0], beam, opts)
						if err != nil {
							return fmt.Errorf("captioning: %s: %w", images[j.lo].ID, err)
						}
						out[j.lo] = hyps[0]
						if rerank != nil {
							if out[j.lo], err = rerank.best(feats[0], hyps); err != nil {
								return fmt.Errorf("%s: %w", images[j.lo].ID, err)
							}
						}
						return nil
					}
					hyps, err := m.Greedy(&ws, feats, opts)
					if err != nil {
						return fmt.Errorf("captioning: %w", err)
					}
					copy(out[j.lo:j.hi], hyps)
					return nil
				}(); err != nil {
					select {
					case errs <- err:
					default:
					}
					for range jobs { // drain
					}
					return
				}
			}
		}()
	}
	var err error
feed:
	for lo := 0; lo < len(images); lo += size {
		select {
		case jobs <- job{lo, min(lo+size, len(images))}:
		case err = <-errs:
			break feed
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err == nil {
		select {
		case err = <-errs:
		default:
		}
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// scoreSet scores hypotheses against the images' reference captions.
func scoreSet(images []captiondata.Image, hyps []caption.Hypothesis) (metrics.CaptionScores, error) {
	cands := make(map[string]string, len(images))
	refs := make(map[string][]string, len(images))
	for i, im := range images {
		cands[im.ID] = strings.Join(hyps[i].Words, " ")
		refs[im.ID] = im.Captions
	}
	return metrics.ScoreCaptions(cands, refs)
}

func joinWords(w []string) string { return strings.Join(w, " ") }
