package audio

import "fmt"

// Warp factors of FbankOptions.Warp outside [MinWarp, MaxWarp] are
// refused: beyond them no human vocal tract is that much shorter or longer
// (Jaitly & Hinton draw α from [0.9, 1.1]; speaker-normalizing VTLN
// searches [0.8, 1.2]), and above about 1.5 the lowest of 80 mel filters
// at 16 kHz catch no FFT bin.
const (
	MinWarp = 0.7
	MaxWarp = 1.4
)

// checkWarp validates a VTLP factor (0 meaning none).
func checkWarp(alpha float64) error {
	if alpha == 0 || alpha >= MinWarp && alpha <= MaxWarp {
		return nil
	}
	return fmt.Errorf("audio: fbank: warp factor %g outside [%g, %g]", alpha, MinWarp, MaxWarp)
}

// SetWarp changes the VTLP factor α (FbankOptions.Warp; 0 or 1 for none)
// for later calls to Compute, which rebuilds the mel filters when it
// changed: one Fbank can featurize each utterance with its own warp.
func (fb *Fbank) SetWarp(alpha float64) error {
	if err := checkWarp(alpha); err != nil {
		return err
	}
	if alpha == 0 {
		alpha = 1
	}
	if alpha != fb.cfg.Warp {
		fb.cfg.Warp, fb.mel = alpha, nil
	}
	return nil
}

// newVTLPWarp returns the frequency warp of vocal tract length
// perturbation (Jaitly & Hinton 2013, "Vocal Tract Length Perturbation
// (VTLP) improves speech recognition", eq. 1) at rate, or nil for α = 1:
//
//	f' = f·α                                      for f ≤ F_hi·min(α, 1)/α
//	f' = S/2 − (S/2 − F_hi·min(α, 1)) / (S/2 − F_hi·min(α, 1)/α) · (S/2 − f)  above,
//
// with S/2 the Nyquist frequency: frequencies are scaled by α up to the
// break point and a line joins it to the Nyquist frequency, which stays
// put, so no energy leaves the band. The warp is continuous and
// increasing. cutoff is F_hi in Hz (0 means 0.6·S/2, 4800 Hz at 16 kHz).
func newVTLPWarp(alpha, cutoff float64, rate int) (func(hz float64) float64, error) {
	if alpha == 1 || alpha == 0 {
		return nil, nil // exactly the unwarped filters
	}
	nyquist := 0.5 * float64(rate)
	if cutoff == 0 {
		cutoff = 0.6 * nyquist
	}
	if cutoff >= nyquist {
		return nil, fmt.Errorf("warp cutoff %g Hz must be below the Nyquist frequency %g Hz", cutoff, nyquist)
	}
	top := cutoff * min(alpha, 1) // f' at the break
	brk := top / alpha            // the break, F_hi·min(α, 1)/α
	slope := (nyquist - top) / (nyquist - brk)
	return func(f float64) float64 {
		if f <= brk {
			return f * alpha
		}
		return nyquist - slope*(nyquist-f)
	}, nil
}
