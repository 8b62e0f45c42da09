package speech

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline/speechdata"
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
	// Speeds lists speed-perturbation factors: each factor other than 1
	// adds a copy of every utterance played that much faster (speedUp),
	// as Kaldi's recipes do (Ko et al. 2015, "Audio augmentation for
	// speech recognition"): {0.9, 1.1} triples the data. Empty means
	// none.
	Speeds []float64
	Seed   uint64
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
	res := make([][]*utterance, len(utts))
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
	for i, us := range res {
		out = append(out, us...)
		if reasons[i] != "" {
			skipped = append(skipped, reasons[i])
		}
	}
	return out, skipped, nil
}

// loadOne loads one utterance and its speed-perturbed copies (the
// original first). A reason comes back when it is skipped; a copy made too
// long by slowing it down is left out silently.
func loadOne(fe *Frontend, u speechdata.Utterance, vocab *asr.Vocab, o LoadOptions, index int) ([]*utterance, string) {
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
	orig, err := Load(u.Path, nil)
	if err != nil {
		return nil, err.Error()
	}
	if secs := orig.Duration().Seconds(); secs > o.MaxSeconds {
		return nil, fmt.Sprintf("%s: %.1f s is longer than %.0f s", u.Path, secs, o.MaxSeconds)
	}
	var out []*utterance
	for v, speed := range append([]float64{1}, o.Speeds...) {
		if v > 0 && speed == 1 {
			continue
		}
		sig, err := speedUp(orig, speed)
		if err != nil {
			return nil, fmt.Sprintf("%s: %v", u.Path, err)
		}
		secs := sig.Duration().Seconds()
		if secs > o.MaxSeconds {
			continue
		}
		if o.Telephone > 0 {
			// The original's draw is the same with or without copies.
			r := rand.New(rand.NewPCG(o.Seed, uint64(index)+uint64(v)<<32))
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
		out = append(out, &utterance{
			Utterance: u, Norm: norm, Seconds: secs,
			Example: asr.Example{Frames: f.Frames, Features: append([]float32(nil), f.Data...), Tokens: tokens},
		})
	}
	return out, ""
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
