package speechtrain

import (
	"context"
	"time"

	"github.com/attend-go/attend/pipeline/internal/parallel"
	"github.com/attend-go/attend/pipeline/metrics"
	"github.com/attend-go/attend/pipeline/speecheval"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
)

// score decodes every utterance's features, loaded for training, with
// workers goroutines sharing model, each with its own workspace, and
// returns the per-utterance results in input order and their sum: the
// quick dev figure of a training run. It is not what "asr transcribe"
// prints (no VAD, chunking or trimming of digital silence): Evaluate is.
func score(ctx context.Context, model *asr.Model, utts []*utterance, workers int, opts *decode.Options) ([]speecheval.Scored, speecheval.Scores, error) {
	out := make([]speecheval.Scored, len(utts))
	errs := make([]error, len(utts))
	err := parallel.ForEach(ctx, len(utts), workers, func() (func(int), error) {
		var ws asr.Workspace
		return func(i int) {
			u := utts[i]
			start := time.Now()
			e, err := model.Encode(&ws, u.Example.Features, u.Example.Frames)
			if err != nil {
				errs[i] = err
				return
			}
			r, err := decode.Decode(model, &ws, e, opts)
			if err != nil {
				errs[i] = err
				return
			}
			out[i] = speecheval.Scored{
				Path: u.Path, Reference: u.Norm, Hypothesis: r.Text, Seconds: u.Seconds,
				Decode: time.Since(start).Seconds(), Fallback: r.Fallback, FromCTC: r.FromCTC,
				WER: metrics.WordErrors(u.Norm, r.Text), CER: metrics.CharErrors(u.Norm, r.Text),
			}
			if model.PhoneCTC != nil && len(u.Example.Phones) > 0 {
				phones, err := model.PhoneGreedy(&ws, u.Example.Features, u.Example.Frames)
				if err != nil {
					errs[i] = err
					return
				}
				out[i].PER, _ = metrics.Align(u.Example.Phones, phones)
			}
		}, nil
	})
	var sum speecheval.Scores
	if err != nil {
		return nil, sum, err
	}
	for i, s := range out {
		if errs[i] != nil {
			return nil, sum, errs[i]
		}
		sum.Add(s)
	}
	return out, sum, nil
}
