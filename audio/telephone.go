package audio

import "fmt"

// TelephoneRate is the sample rate of narrowband telephony (ITU-T G.711).
const TelephoneRate = 8000

// Telephone returns mono samples x (at rate) as a narrowband digital
// telephone line passes them: resampled to 8 kHz (the resampler's Kaiser
// low-pass passes 0–3.6 kHz and attenuates 96 dB from 4 kHz), companded
// by the G.711 law at 8 bits per sample (G711), and resampled back to
// rate. The result has len(x) samples; x is not changed.
func Telephone(x []float32, rate int, law G711Law) ([]float32, error) {
	if len(x) == 0 {
		return []float32{}, nil
	}
	low, err := Resample(&Signal{Rate: rate, Channels: 1, Samples: x}, TelephoneRate)
	if err != nil {
		return nil, fmt.Errorf("audio: telephone: %w", err)
	}
	if &low.Samples[0] == &x[0] {
		low.Samples = append([]float32(nil), low.Samples...) // x was at 8 kHz already
	}
	if err := G711(low.Samples, law); err != nil {
		return nil, err
	}
	back, err := Resample(low, rate)
	if err != nil {
		return nil, fmt.Errorf("audio: telephone: %w", err)
	}
	y := back.Samples
	if len(y) > len(x) {
		y = y[:len(x)]
	}
	for len(y) < len(x) {
		y = append(y, 0)
	}
	return y, nil
}
