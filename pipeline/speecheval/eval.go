package speecheval

import (
	"context"
	"fmt"

	"github.com/attend-go/attend/pipeline/internal/parallel"
	"github.com/attend-go/attend/pipeline/metrics"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// EvalOptions configures Evaluate.
type EvalOptions struct {
	// Transcribe is how each utterance is transcribed: the options of
	// "asr transcribe" (NoVAD, Segment). Threads, KeepAlignment, OnChunk
	// and OnStart do not apply.
	Transcribe speech.TranscribeOptions
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

// Evaluate transcribes every utterance of a manifest exactly as "asr
// transcribe" does, through the same Transcriber (decoding, resampling,
// voice activity detection, chunking, digital-silence trimming, search
// and language model all the model's and opts'), and scores each
// transcript's text, as printed, against the normalized reference: WER
// and CER with substitution, deletion and insertion counts, and the
// real-time factor. An utterance whose reference normalizes to nothing,
// or whose audio does not transcribe (no audio, a broken file), is
// skipped with the reason.
func Evaluate(ctx context.Context, model speechmodel.Model, manifest string, o EvalOptions) (*EvalReport, error) {
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
	topts := o.Transcribe
	topts.Threads, topts.KeepAlignment, topts.OnChunk, topts.OnStart = 0, false, nil, nil
	out := make([]*Scored, len(utts))
	reasons := make([]string, len(utts))
	errs := make([]error, len(utts))
	err = parallel.ForEach(ctx, len(utts), o.Workers, func() (func(int), error) {
		tr, err := speech.NewTranscriber(model, &topts)
		if err != nil {
			return nil, err
		}
		return func(i int) { out[i], reasons[i], errs[i] = evalOne(ctx, tr, utts[i]) }, nil
	})
	if err != nil {
		return nil, err
	}
	rep := &EvalReport{}
	for i, s := range out {
		switch {
		case errs[i] != nil:
			return nil, errs[i]
		case s == nil:
			rep.Skipped = append(rep.Skipped, reasons[i])
		default:
			rep.Utterances = append(rep.Utterances, *s)
			rep.Add(*s)
		}
	}
	if len(rep.Utterances) == 0 {
		return nil, fmt.Errorf("%s: no utterance could be transcribed (%d skipped)", manifest, len(rep.Skipped))
	}
	return rep, nil
}

// evalOne transcribes and scores one utterance, or says why it is
// skipped; an error (the context's) ends the evaluation.
func evalOne(ctx context.Context, tr *speech.Transcriber, u speechdata.Utterance) (*Scored, string, error) {
	ref := speechdata.Normalize(u.Text)
	if ref == "" {
		return nil, fmt.Sprintf("%s: empty text after normalization", u.Path), nil
	}
	t, err := tr.FileContext(ctx, u.Path)
	if err != nil && ctx.Err() != nil {
		return nil, "", context.Cause(ctx)
	}
	if err != nil {
		return nil, err.Error(), nil
	}
	s := &Scored{Path: u.Path, Reference: ref, Hypothesis: t.Text, Seconds: t.Duration, Decode: t.Decode,
		WER: metrics.WordErrors(ref, t.Text), CER: metrics.CharErrors(ref, t.Text)}
	for _, c := range t.Chunks {
		if s.Fallback == "" {
			s.Fallback = c.Fallback
		}
		s.FromCTC = s.FromCTC || c.FromCTC
	}
	return s, "", nil
}
