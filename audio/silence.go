package audio

// DigitalSilence is the largest sample magnitude that counts as digital
// silence: one least significant bit of 16-bit audio.
const DigitalSilence = 1.0 / 32768

// TrimDigitalSilence returns the bounds [lo, hi) of samples without the
// digital silence at either end: runs of samples no louder than
// DigitalSilence that are at least minRun samples long (shorter runs are
// kept). No microphone is that quiet, so such runs come from editing
// (pauses muted or inserted, files padded with zeros), and a recognizer
// never heard them around its training utterances: in log-mel features
// they sit at the energy floor, far below any room noise, and drag the
// utterance's mean and variance normalization with them. All digital
// silence gives lo == hi.
func TrimDigitalSilence(samples []float32, minRun int) (lo, hi int) {
	minRun = max(1, minRun)
	lo, hi = 0, len(samples)
	for lo < hi && quiet(samples[lo]) {
		lo++
	}
	if lo < minRun && lo < hi {
		lo = 0
	}
	if lo == hi {
		return lo, hi
	}
	for hi > lo && quiet(samples[hi-1]) {
		hi--
	}
	if len(samples)-hi < minRun {
		hi = len(samples)
	}
	return lo, hi
}

func quiet(x float32) bool { return x <= DigitalSilence && x >= -DigitalSilence }
