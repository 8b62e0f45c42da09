package captioning

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/attend-go/attend/models/caption"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/metrics"
)

// EvalOptions configures Evaluate. The zero value of a field means the
// default noted.
type EvalOptions struct {
	// Dataset is a caption dataset captiondata.Read understands. Required.
	Dataset string
	// Images is the directory of its image files ("": the dataset's own).
	Images string
	// Split names the split scored ("test").
	Split string
	// Cache is the feature cache holding the split's images. Required.
	Cache string
	// Beams are the search widths scored, one row each (nil means 1 and
	// 3: greedy search and beam search of width 3).
	Beams []int
	// Search tunes the searches (length, length penalty, <unk>); nil
	// means DefaultSearchOptions.
	Search *caption.SearchOptions
	// Workers decode in parallel (0 means 1).
	Workers int
	// Limit scores the first Limit images only (0: all).
	Limit int
	// Rerank, if set, reranks the candidates of every beam search of
	// width 2 or more by consensus with the memory's nearest training
	// images (Memory).
	Rerank *Reranking
	// Encoder is the hex SHA-256 of the encoder the model's features came
	// from (OpenModelEncoder). When set, a cache holding another encoder's
	// features is refused with ErrWrongEncoder: the model would caption
	// noise. "" checks nothing, nor does a cache that names no encoder.
	Encoder string
}

// EvalReport is a split's evaluation: one row per search.
type EvalReport struct {
	Images int       `json:"images"`
	Rows   []EvalRow `json:"rows"`
}

// EvalRow is the evaluation of one search.
type EvalRow struct {
	Beam    int                   `json:"beam"` // 1: greedy search
	Scores  metrics.CaptionScores `json:"scores"`
	Seconds float64               `json:"seconds"` // wall time of decoding the split
	// RepeatsBigram is the fraction of captions that say some bigram
	// twice ("on a bench on a bench"; caption.RepeatsBigram).
	RepeatsBigram float64 `json:"repeats_bigram"`
	// Captions holds each image's caption, in the split's order.
	Captions []Captioned `json:"captions,omitempty"`
}

// Captioned is one image's caption in an evaluation: its ID, the
// Caption without Details, and the references it was scored against.
type Captioned struct {
	ID string `json:"id"`
	Caption
	Refs []string `json:"references"`
}

// Evaluate captions the images of a split from their cached features with
// each search of o.Beams and scores them against the references:
// BLEU-1…4, METEOR, ROUGE-L and CIDEr-D (package metrics), and counts the
// captions that repeat a bigram. model is a *caption.Model or a
// *caption.Ensemble.
func Evaluate(ctx context.Context, model caption.Searcher, o EvalOptions) (*EvalReport, error) {
	if o.Dataset == "" {
		return nil, errors.New("captioning: eval: no dataset")
	}
	if o.Split == "" {
		o.Split = "test"
	}
	if o.Beams == nil {
		o.Beams = []int{1, 3}
	}
	for _, k := range o.Beams {
		if k < 1 {
			return nil, fmt.Errorf("captioning: eval: beam width %d, want at least 1", k)
		}
	}
	images, err := captiondata.Read(o.Dataset, o.Split, o.Images)
	if err != nil {
		return nil, err
	}
	if o.Limit > 0 && len(images) > o.Limit {
		images = images[:o.Limit]
	}
	cache, err := openCache(o.Cache, o.Dataset, o.Split, images)
	if err != nil {
		return nil, err
	}
	defer cache.Close()
	if err := checkGrid(model, cache); err != nil {
		return nil, err
	}
	if got := cache.Spec().Encoder; o.Encoder != "" && got != "" && got != o.Encoder {
		return nil, wrongEncoder("the feature cache "+o.Cache+" holds features of", got, o.Encoder)
	}
	if o.Rerank != nil {
		if err := o.Rerank.Memory.CheckModel(model, o.Encoder); err != nil {
			return nil, err
		}
	}
	rep := &EvalReport{Images: len(images)}
	for _, k := range o.Beams {
		start := time.Now()
		hyps, err := decodeSet(ctx, model, cache, images, k, o.Workers, o.Search, o.Rerank)
		if err != nil {
			return nil, err
		}
		row := EvalRow{Beam: k, Seconds: time.Since(start).Seconds(), Captions: make([]Captioned, len(images))}
		if row.Scores, err = scoreSet(images, hyps); err != nil {
			return nil, err
		}
		repeating := 0
		for i, h := range hyps {
			row.Captions[i] = Captioned{ID: images[i].ID, Caption: briefCaption(&h), Refs: images[i].Captions}
			if caption.RepeatsBigram(h.Words) {
				repeating++
			}
		}
		if len(hyps) > 0 {
			row.RepeatsBigram = float64(repeating) / float64(len(hyps))
		}
		rep.Rows = append(rep.Rows, row)
	}
	return rep, nil
}
