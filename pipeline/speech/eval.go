package speech

import (
	"context"
	"fmt"
	"github.com/attend-go/attend/pipeline/speechdata"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
)

// EvalOptions configures Evaluate.
type EvalOptions struct {
	// Search tunes the decoding; start from decode.DefaultOptions
	// (zero weights are real zeros).
	Search decode.Options
	// Workers transcribe in parallel (0 means 1, which makes the decode
	// times single-core real-time factors).
	Workers int
	// Speakers, when positive, keeps only the dev split of "asr train":
	// the utterances of this many whole speakers held out with Seed.
	Speakers int
	Seed     uint64
	// Limit scores at most this many utterances (0: all).
	Limit int
}

// EvalReport is a corpus evaluation.
type EvalReport struct {
	Scores
	Utterances []Scored
	Skipped    []string
}

// Evaluate transcribes every utterance of a manifest and scores the
// normalized transcripts: WER and CER with substitution, deletion and
// insertion counts, and the real-time factor.
func Evaluate(ctx context.Context, model *asr.Model, manifest string, o EvalOptions) (*EvalReport, error) {
	utts, err := speechdata.Read(manifest)
	if err != nil {
		return nil, err
	}
	if o.Speakers > 0 {
		if _, utts, err = speechdata.SplitBySpeaker(utts, o.Speakers, o.Seed); err != nil {
			return nil, fmt.Errorf("%s: %w", manifest, err)
		}
	}
	if o.Limit > 0 && len(utts) > o.Limit {
		utts = utts[:o.Limit]
	}
	loaded, skipped, err := loadUtterances(ctx, utts, model.Vocab, LoadOptions{Workers: max(1, o.Workers), MaxSeconds: 3600, MaxChars: 1 << 20})
	if err != nil {
		return nil, err
	}
	if len(loaded) == 0 {
		return nil, fmt.Errorf("%s: no utterance could be loaded (%d skipped)", manifest, len(skipped))
	}
	per, sum, err := score(ctx, model, loaded, max(1, o.Workers), &o.Search)
	if err != nil {
		return nil, err
	}
	return &EvalReport{Scores: sum, Utterances: per, Skipped: skipped}, nil
}
