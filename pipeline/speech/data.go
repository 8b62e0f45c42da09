package speech

import (
	"context"
	"fmt"
	"github.com/attend-go/attend/pipeline/speechdata"
	"math/rand/v2"
	"sync"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline"
)

// utterance is one loaded example: its manifest entry, normalized text,
// tokens and features.
type utterance struct {
	speechdata.Utterance
	Norm    string
	Example asr.Example
	Seconds float64
}

// LoadOptions controls how a manifest becomes training examples.
type LoadOptions struct {
	// Workers decode and featurize in parallel (0 means 2).
	Workers int
	// Telephone is the fraction of utterances band-limited to telephone
	// bandwidth (resampled to 8 kHz and back) before featurizing, chosen
	// by Seed: robustness to 8 kHz input such as the Asterisk prompts.
	Telephone float64
	Seed      uint64
	// MaxSeconds skips longer utterances (0 means 16 s): one long
	// utterance makes a bucket of its own and costs memory.
	MaxSeconds float64
	// MaxChars skips utterances with longer normalized transcripts (0
	// means 150): the speller's graph grows with the transcript.
	MaxChars int
}

// loadUtterances decodes, featurizes and tokenizes utts. Utterances whose
// text normalizes to nothing, whose audio fails to load or is too long are
// skipped and counted in skipped (with the first few reasons).
func loadUtterances(ctx context.Context, utts []speechdata.Utterance, vocab *asr.Vocab, o LoadOptions) (out []*utterance, skipped []string, err error) {
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.MaxSeconds <= 0 {
		o.MaxSeconds = 16
	}
	if o.MaxChars <= 0 {
		o.MaxChars = 150
	}
	res := make([]*utterance, len(utts))
	reasons := make([]string, len(utts))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range o.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fe, err := NewFrontend()
			if err != nil {
				panic(err) // default options cannot fail
			}
			for i := range jobs {
				res[i], reasons[i] = loadOne(fe, utts[i], vocab, o, i)
			}
		}()
	}
	for i := range utts {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	for i, u := range res {
		if u != nil {
			out = append(out, u)
		} else {
			skipped = append(skipped, reasons[i])
		}
	}
	return out, skipped, nil
}

func loadOne(fe *Frontend, u speechdata.Utterance, vocab *asr.Vocab, o LoadOptions, index int) (*utterance, string) {
	norm := speechdata.Normalize(u.Text)
	if norm == "" {
		return nil, fmt.Sprintf("%s: empty text after normalization", u.Path)
	}
	if len(norm) > o.MaxChars {
		return nil, fmt.Sprintf("%s: transcript of %d characters is longer than %d", u.Path, len(norm), o.MaxChars)
	}
	tokens, err := vocab.Encode(norm)
	if err != nil {
		return nil, fmt.Sprintf("%s: %v", u.Path, err)
	}
	sig, err := pipeline.LoadSpeech(u.Path, nil)
	if err != nil {
		return nil, err.Error()
	}
	secs := float64(len(sig.Samples)) / float64(sig.Rate)
	if secs > o.MaxSeconds {
		return nil, fmt.Sprintf("%s: %.1f s is longer than %.0f s", u.Path, secs, o.MaxSeconds)
	}
	if o.Telephone > 0 {
		r := rand.New(rand.NewPCG(o.Seed, uint64(index)))
		if r.Float64() < o.Telephone {
			if sig, err = telephone(sig); err != nil {
				return nil, fmt.Sprintf("%s: %v", u.Path, err)
			}
		}
	}
	f, err := fe.Compute(sig.Samples, sig.Rate)
	if err != nil {
		return nil, fmt.Sprintf("%s: %v", u.Path, err)
	}
	return &utterance{
		Utterance: u, Norm: norm, Seconds: secs,
		Example: asr.Example{Frames: f.Frames, Features: append([]float32(nil), f.Data...), Tokens: tokens},
	}, ""
}

// telephone band-limits a 16 kHz signal to 4 kHz by resampling it to 8 kHz
// and back.
func telephone(sig *audio.Signal) (*audio.Signal, error) {
	low, err := audio.Resample(sig, 8000)
	if err != nil {
		return nil, err
	}
	return audio.Resample(low, sig.Rate)
}
