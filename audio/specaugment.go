package audio

import (
	"errors"
	"fmt"
	"math/rand/v2"
)

// SpecAugmentOptions configures SpecAugment's masks. The zero value (and a
// nil *SpecAugmentOptions) means Park et al.'s LibriSpeech double policy
// (LD: two frequency masks of width ≤ 27 on 80 mel bins, two time masks)
// with time masks of at most 40 frames and 20% of the utterance, which
// suits short utterances better than LD's 100 frames with p = 1.
type SpecAugmentOptions struct {
	// FreqMasks is the number of frequency masks (the paper's m_F).
	// 0 means 2; a negative value means none.
	FreqMasks int
	// MaxFreqWidth is F: each frequency mask covers f ~ U{0, …, F}
	// consecutive bins. 0 means 27.
	MaxFreqWidth int
	// TimeMasks is the number of time masks (m_T). 0 means 2; a negative
	// value means none.
	TimeMasks int
	// MaxTimeWidth is T: each time mask covers t ~ U{0, …, min(T, ⌊p·τ⌋)}
	// consecutive frames of a τ-frame utterance. 0 means 40.
	MaxTimeWidth int
	// MaxTimeRatio is p, the upper bound on one time mask's width as a
	// fraction of the frames. 0 means 0.2; at most 1.
	MaxTimeRatio float64
	// Value is what masked entries are set to. The default 0 is the mean
	// after CMVN, as in the paper (masking normalized features with 0).
	Value float32
}

// SpecAugment masks f in place with frequency and time masks (Park et al.
// 2019, "SpecAugment: A Simple Data Augmentation Method for Automatic
// Speech Recognition", §2; time warping is left out, the paper found it
// the least useful). Apply it to normalized features (after CMVN) during
// training only. Each frequency mask sets bins [f0, f0+f) of every frame
// to opts.Value, with f drawn uniformly from {0, …, F} and f0 from
// {0, …, Bins−f}; each time mask sets frames [t0, t0+t) likewise. Masks
// may overlap. All randomness comes from rng, so a seeded rng repeats the
// same masks.
func SpecAugment(f *Features, opts *SpecAugmentOptions, rng *rand.Rand) error {
	if err := f.check(); err != nil {
		return fmt.Errorf("audio: specaugment: %w", err)
	}
	if rng == nil {
		return errors.New("audio: specaugment: nil random source")
	}
	var o SpecAugmentOptions
	if opts != nil {
		o = *opts
	}
	switch {
	case o.MaxFreqWidth < 0:
		return fmt.Errorf("audio: specaugment: max frequency mask width %d must not be negative", o.MaxFreqWidth)
	case o.MaxTimeWidth < 0:
		return fmt.Errorf("audio: specaugment: max time mask width %d must not be negative", o.MaxTimeWidth)
	case !(o.MaxTimeRatio >= 0 && o.MaxTimeRatio <= 1):
		return fmt.Errorf("audio: specaugment: max time ratio %g must be in [0, 1]", o.MaxTimeRatio)
	}
	if o.FreqMasks == 0 {
		o.FreqMasks = 2
	}
	if o.MaxFreqWidth == 0 {
		o.MaxFreqWidth = 27
	}
	if o.TimeMasks == 0 {
		o.TimeMasks = 2
	}
	if o.MaxTimeWidth == 0 {
		o.MaxTimeWidth = 40
	}
	if o.MaxTimeRatio == 0 {
		o.MaxTimeRatio = 0.2
	}

	for range o.FreqMasks { // a negative count runs no iterations
		width := rng.IntN(min(o.MaxFreqWidth, f.Bins) + 1)
		start := rng.IntN(f.Bins - width + 1)
		for t := range f.Frames {
			row := f.Row(t)
			for b := start; b < start+width; b++ {
				row[b] = o.Value
			}
		}
	}
	maxT := min(o.MaxTimeWidth, int(o.MaxTimeRatio*float64(f.Frames)))
	for range o.TimeMasks {
		width := rng.IntN(maxT + 1)
		start := rng.IntN(f.Frames - width + 1)
		mask := f.Data[start*f.Bins : (start+width)*f.Bins]
		for i := range mask {
			mask[i] = o.Value
		}
	}
	return nil
}
