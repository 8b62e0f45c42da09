package audio

import (
	"fmt"
	"math"
)

// cmvnMinStd is the smallest standard deviation CMVN divides by. Bins that
// vary less (a constant bin, a single frame, log-floored silence) are only
// mean-subtracted, so they become 0 rather than noise blown up to ±1.
const cmvnMinStd = 1e-5

// CMVN applies per-utterance cepstral mean and variance normalization to
// f in place: every bin b is shifted and scaled over the frames to
//
//	x[t,b] ← (x[t,b] − μ_b) / σ_b,   μ_b = mean_t x[t,b],   σ_b² = mean_t (x[t,b] − μ_b)²,
//
// so each bin has mean 0 and variance 1 (the population variance). A bin
// with σ_b < 1e-5 is only centered. Features with no frames are left as
// they are. It returns an error if f's shape and data disagree.
func CMVN(f *Features) error {
	if err := f.check(); err != nil {
		return fmt.Errorf("audio: cmvn: %w", err)
	}
	if f.Frames == 0 {
		return nil
	}
	n := float64(f.Frames)
	mean := make([]float64, f.Bins)
	for t := range f.Frames {
		for b, v := range f.Row(t) {
			mean[b] += float64(v)
		}
	}
	for b := range mean {
		mean[b] /= n
	}
	// Second pass on the centered values: exact even for large offsets.
	scale := make([]float64, f.Bins)
	for t := range f.Frames {
		for b, v := range f.Row(t) {
			d := float64(v) - mean[b]
			scale[b] += d * d
		}
	}
	for b, ss := range scale {
		scale[b] = 1
		if std := math.Sqrt(ss / n); std >= cmvnMinStd {
			scale[b] = 1 / std
		}
	}
	for t := range f.Frames {
		row := f.Row(t)
		for b := range row {
			row[b] = float32((float64(row[b]) - mean[b]) * scale[b])
		}
	}
	return nil
}
