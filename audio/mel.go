package audio

import (
	"fmt"
	"math"
)

// melScale maps a frequency in Hz to mels with Kaldi's (and HTK's) formula,
// mel(f) = 1127·ln(1 + f/700).
func melScale(hz float64) float64 { return 1127 * math.Log1p(hz/700) }

// melFilter is one triangular mel filter, stored sparsely: it weighs the
// power spectrum bins start, start+1, …, start+len(weights)-1.
type melFilter struct {
	start   int
	weights []float64
}

// apply returns the filter's weighted sum of the power spectrum.
func (m *melFilter) apply(power []float64) float64 {
	p := power[m.start : m.start+len(m.weights)]
	var s float64
	for i, w := range m.weights {
		s += w * p[i]
	}
	return s
}

// newMelBank returns Kaldi's mel filterbank (feat/mel-computations.cc,
// MelBanks): bins triangles equally spaced on the mel scale between low
// and high Hz, the triangle of bin m rising from mel point m to m+1 and
// falling to m+2, where the bins+2 points split [mel(low), mel(high)]
// evenly. They weigh FFT bins 0 … fftSize/2-1 of a fftSize-point FFT at
// the given sample rate (Kaldi leaves out the Nyquist bin). Triangles are
// not normalized to unit area, as in Kaldi. A non-nil warp maps each FFT
// bin's frequency before the filters weigh it (VTLP; Kaldi's VTLN warps
// the same way, in MelBanks' VtlnWarpMelFreq).
func newMelBank(bins, fftSize, rate int, low, high float64, warp func(hz float64) float64) ([]melFilter, error) {
	nyquist := 0.5 * float64(rate)
	if high <= 0 {
		high += nyquist
	}
	if low < 0 || low >= nyquist {
		return nil, fmt.Errorf("low frequency %g Hz must be in [0, %g) at %d Hz", low, nyquist, rate)
	}
	if high <= low || high > nyquist {
		return nil, fmt.Errorf("high frequency %g Hz must be in (%g, %g] at %d Hz", high, low, nyquist, rate)
	}
	binWidth := float64(rate) / float64(fftSize) // Hz per FFT bin
	melLow, melHigh := melScale(low), melScale(high)
	delta := (melHigh - melLow) / float64(bins+1)

	bank := make([]melFilter, bins)
	for m := range bank {
		left := melLow + float64(m)*delta
		center := left + delta
		right := center + delta
		f := &bank[m]
		f.start = -1
		for i := range fftSize / 2 {
			hz := binWidth * float64(i)
			if warp != nil {
				hz = warp(hz)
			}
			mel := melScale(hz)
			w := min((mel-left)/(center-left), (right-mel)/(right-center))
			if w <= 0 {
				if f.start >= 0 {
					break // past the triangle
				}
				continue
			}
			if f.start < 0 {
				f.start = i
			}
			f.weights = append(f.weights, w)
		}
		if f.start < 0 {
			return nil, fmt.Errorf("mel bin %d of %d covers no FFT bin: too many bins for a %d-point FFT", m, bins, fftSize)
		}
	}
	return bank, nil
}
