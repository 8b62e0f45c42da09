package speech

import (
	"context"
	"time"

	"github.com/attend-go/attend/pipeline/metrics"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
)

// Scored is one evaluated utterance.
type Scored struct {
	Path       string             `json:"path"`
	Reference  string             `json:"reference"`
	Hypothesis string             `json:"hypothesis"`
	Seconds    float64            `json:"seconds"`  // audio duration
	Decode     float64            `json:"decode_s"` // listener + search time
	Fallback   string             `json:"fallback,omitempty"`
	FromCTC    bool               `json:"from_ctc,omitempty"` // decode.Result.FromCTC
	WER        metrics.EditCounts `json:"-"`
	CER        metrics.EditCounts `json:"-"`
	// PER counts the phone errors of the phone CTC head's best path
	// against the utterance's phones (a model with a phone head and an
	// utterance with phone targets only; zero otherwise).
	PER metrics.EditCounts `json:"-"`
}

// Scores sums a corpus evaluation.
type Scores struct {
	Utterances    int
	WER, CER      metrics.EditCounts
	PER           metrics.EditCounts // Ref 0 when no phone head was scored
	AudioSeconds  float64
	DecodeSeconds float64 // summed over utterances (CPU time of one worker each)
	// Fallbacks counts the utterances whose transcript came from CTC: the
	// fallback of attention search alone, or under joint rescoring the CTC
	// or phone beam's transcript (decode.Result.FromCTC).
	Fallbacks int
}

// RTF is the real-time factor: decoding time per second of audio.
func (s Scores) RTF() float64 {
	if s.AudioSeconds == 0 {
		return 0
	}
	return s.DecodeSeconds / s.AudioSeconds
}

// score decodes every utterance's features, loaded for training, with
// workers goroutines sharing model, each with its own workspace, and
// returns the per-utterance results in input order and their sum: the
// quick dev figure of a training run. It is not what "asr transcribe"
// prints (no VAD, chunking or trimming of digital silence): Evaluate is.
func score(ctx context.Context, model *asr.Model, utts []*utterance, workers int, opts *decode.Options) ([]Scored, Scores, error) {
	out := make([]Scored, len(utts))
	errs := make([]error, len(utts))
	err := forEach(ctx, len(utts), workers, func() (func(int), error) {
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
			out[i] = Scored{
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
	var sum Scores
	if err != nil {
		return nil, sum, err
	}
	for i, s := range out {
		if errs[i] != nil {
			return nil, sum, errs[i]
		}
		sum.add(s)
	}
	return out, sum, nil
}

// add counts one scored utterance into s.
func (s *Scores) add(u Scored) {
	s.Utterances++
	s.WER.Add(u.WER)
	s.CER.Add(u.CER)
	s.PER.Add(u.PER)
	s.AudioSeconds += u.Seconds
	s.DecodeSeconds += u.Decode
	if u.Fallback != "" || u.FromCTC {
		s.Fallbacks++
	}
}
