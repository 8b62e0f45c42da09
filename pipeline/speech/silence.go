package speech

import "github.com/attend-go/attend/audio"

// audible returns the part of a chunk the model hears, without the
// digital silence at its ends (audio.TrimDigitalSilence: muted or
// inserted pauses, zero padding), and its offset in the chunk in
// seconds. The model never heard such silence around real speech, and
// its log-mel frames, at the energy floor, would skew the chunk's mean
// and variance normalization: dev utterances joined by digitally silent
// pauses lost 6 to 12 WER points to it, cut at the right places. A run
// shorter than one 25 ms frame is kept, and so is a chunk that is all
// digital silence (empty says so).
func audible(samples []float32, rate int) (part []float32, offset float64, empty bool) {
	frame := rate / 40
	lo, hi := audio.TrimDigitalSilence(samples, frame)
	if hi-lo < frame {
		return samples, 0, hi == lo
	}
	return samples[lo:hi], float64(lo) / float64(rate), false
}
