package speechtrain

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline/internal/parallel"
	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// utterance is one loaded example: its manifest entry, normalized text,
// tokens and features, and where its audio came from.
type utterance struct {
	speechdata.Utterance
	Norm    string
	Example asr.Example
	Seconds float64
	Origin  origin
}

// origin tells recorded speech, copies of it and synthetic speech apart,
// for the log's account of the training mix.
type origin int

const (
	recorded  origin = iota // as recorded (perhaps band-limited)
	perturbed               // a speed-perturbed or augmented copy
	synthetic               // from a manifest of synthetic speech
)

// LoadOptions controls how a manifest becomes training examples.
type LoadOptions struct {
	// Workers decode and featurize in parallel (0 means 2).
	Workers int
	// Telephone is the fraction of utterances passed through a telephone
	// line before featurizing, chosen by Seed: band-limited to 4 kHz
	// (resampled to 8 kHz and back) and companded by G.711 µ-law or A-law
	// in between (audio.Telephone): robustness to 8 kHz input such as the
	// Asterisk prompts and to telephone recordings.
	Telephone float64
	// Speeds lists speed-perturbation factors: each factor other than 1
	// adds a copy of every utterance played that much faster (speedUp),
	// as Kaldi's recipes do (Ko et al. 2015, "Audio augmentation for
	// speech recognition"): {0.9, 1.1} triples the data. Empty means
	// none.
	Speeds []float64
	// Augment adds that many augmented copies of every utterance not
	// marked Synthetic, each with its own seeded VTLP warp, room, noise
	// and band (see drawPerturbation): 0 means none.
	Augment int
	// Warp is the range of the copies' VTLP factors, within
	// [audio.MinWarp, audio.MaxWarp]; the zero value means DefaultWarp
	// and {1, 1} no warp.
	Warp [2]float64
	// NoiseDirs are directories of non-speech sounds (music, bells,
	// alarms: any audio files) that a quarter of the copies are mixed
	// with instead of coloured noise; none means coloured noise and
	// babble only.
	NoiseDirs []string
	// Synthetic marks the utterances (Synthetic[i] for utts[i]) of
	// synthetic speech, already augmented when rendered: they are loaded
	// once, with neither speed nor augmented copies. Nil means none.
	Synthetic []bool
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
	var pool *noisePool
	if o.Augment > 0 {
		if pool, err = newNoisePool(utts, &o); err != nil {
			return nil, nil, err
		}
	}
	res := make([][]*utterance, len(utts))
	reasons := make([]string, len(utts))
	err = parallel.ForEach(ctx, len(utts), o.Workers, func() (func(int), error) {
		fe, err := speechmodel.NewFrontend()
		if err != nil {
			return nil, err
		}
		return func(i int) { res[i], reasons[i] = loadOne(fe, utts[i], vocab, &o, i, pool) }, nil
	})
	if err != nil {
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

// synthetic reports whether utterance i is synthetic speech.
func (o *LoadOptions) synthetic(i int) bool { return i < len(o.Synthetic) && o.Synthetic[i] }

// loadOne loads one utterance, its speed-perturbed copies and its
// augmented copies, in that order (the original first). A reason comes
// back when it is skipped; a copy made too long by slowing it down is
// left out silently.
func loadOne(fe *speechmodel.Frontend, u speechdata.Utterance, vocab *asr.Vocab, o *LoadOptions, index int, pool *noisePool) ([]*utterance, string) {
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
	orig, err := speechmodel.Load(u.Path, nil)
	if err != nil {
		return nil, err.Error()
	}
	if secs := orig.Duration().Seconds(); secs > o.MaxSeconds {
		return nil, fmt.Sprintf("%s: %.1f s is longer than %.0f s", u.Path, secs, o.MaxSeconds)
	}
	kind, speeds, copies := recorded, append([]float64{1}, o.Speeds...), o.Augment
	if o.synthetic(index) {
		kind, speeds, copies = synthetic, speeds[:1], 0
	}
	var out []*utterance
	// add featurizes sig, whose length before any telephone band is secs.
	add := func(sig *audio.Signal, secs, warp float64, kind origin) string {
		if err := fe.SetWarp(warp); err != nil {
			return fmt.Sprintf("%s: %v", u.Path, err)
		}
		f, err := fe.Compute(sig.Samples, sig.Rate)
		if err != nil {
			return fmt.Sprintf("%s: %v", u.Path, err)
		}
		out = append(out, &utterance{
			Utterance: u, Norm: norm, Seconds: secs, Origin: kind,
			Example: asr.Example{Frames: f.Frames, Features: append([]float32(nil), f.Data...), Tokens: tokens},
		})
		return ""
	}
	for v, speed := range speeds {
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
				if sig, err = telephone(sig, drawLaw(r)); err != nil {
					return nil, fmt.Sprintf("%s: %v", u.Path, err)
				}
			}
		}
		if v > 0 {
			kind = perturbed
		}
		if reason := add(sig, secs, 1, kind); reason != "" {
			return nil, reason
		}
	}
	for c := range copies {
		p := drawPerturbation(o, pool, index, c)
		sig, err := p.apply(orig, pool)
		if errors.Is(err, audio.ErrSilent) {
			continue // no level to set noise against; the original stays
		}
		if err != nil {
			return nil, fmt.Sprintf("%s: copy %d (%v): %v", u.Path, c, p, err)
		}
		if reason := add(sig, orig.Duration().Seconds(), p.warp, perturbed); reason != "" {
			return nil, reason
		}
	}
	return out, ""
}

// telephone passes a mono signal through a telephone line
// (audio.Telephone: 4 kHz band, G.711 companding by law).
func telephone(sig *audio.Signal, law audio.G711Law) (*audio.Signal, error) {
	y, err := audio.Telephone(sig.Samples, sig.Rate, law)
	if err != nil {
		return nil, err
	}
	return &audio.Signal{Rate: sig.Rate, Channels: 1, Samples: y}, nil
}

// drawLaw picks the G.711 law of a telephone line: µ-law or A-law, even
// odds.
func drawLaw(r *rand.Rand) audio.G711Law { return audio.G711Law(r.IntN(2)) }
