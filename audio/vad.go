package audio

import (
	"fmt"
	"math"
)

// VADOptions configures a VAD. The zero value (and a nil *VADOptions)
// means the defaults noted.
type VADOptions struct {
	// Threshold is the speech probability above which a frame is speech.
	// 0 means DefaultVADThreshold. Lower values drop less speech and keep
	// more noise.
	Threshold float64
}

// DefaultVADThreshold is the default VADOptions.Threshold, chosen on the
// speechocean762 and native dev utterances so that at most 1 % of their
// words lose their audio (see the package comment, Voice activity).
const DefaultVADThreshold = 0.5

// VAD context: the local statistics of a frame look ±vadContext frames
// (±240 ms) around it, the noise floor ±vadFloorContext frames (±1 s).
// Probabilities therefore come out vadFloorContext frames (1 s) after the
// samples that complete their frame.
const (
	vadContext      = 12
	vadFloorContext = 50
	vadFeatures     = 10
	vadVoiced       = 0.7 // NCCF above which a frame counts as voiced
)

// VAD is a voice activity detector: it gives each 20 ms frame of 16 kHz
// mono audio a probability that it holds speech. Samples are pushed with
// Write and Close; the probability of frame i (samples [320i, 320i+320))
// is available once the detector has seen 1 s of audio past that frame
// or the end of the stream. See the package comment (Voice activity) for
// the features and the classifier.
//
// A VAD keeps the frames it has not been told to Forget; a long stream
// must be forgotten as it goes to keep memory bounded. It is not safe for
// concurrent use.
type VAD struct {
	threshold float32
	a         *vadAnalyzer
	pending   []float32  // samples from frame len(frames)+first on
	tail      []float32  // the last vadWindow samples written
	frames    []vadFrame // frames first … first+len(frames)−1
	probs     []float32  // probabilities of frames first … first+len(probs)−1
	first     int
	closed    bool
	feat      [vadFeatures]float64
}

// NewVAD returns a voice activity detector.
func NewVAD(opts *VADOptions) (*VAD, error) {
	var o VADOptions
	if opts != nil {
		o = *opts
	}
	if o.Threshold == 0 {
		o.Threshold = DefaultVADThreshold
	}
	if !(o.Threshold > 0 && o.Threshold < 1) {
		return nil, fmt.Errorf("audio: vad: threshold %g must be in (0, 1)", o.Threshold)
	}
	return &VAD{threshold: float32(o.Threshold), a: newVADAnalyzer()}, nil
}

// VADRate is the sample rate a VAD reads; VADHop the samples per frame.
const (
	VADRate = vadRate
	VADHop  = vadHop
)

// Reset makes v ready for a new stream.
func (v *VAD) Reset() {
	v.pending, v.tail, v.frames, v.probs = v.pending[:0], v.tail[:0], v.frames[:0], v.probs[:0]
	v.first, v.closed = 0, false
	v.a.prev = false
}

// Write feeds 16 kHz mono samples to the detector.
func (v *VAD) Write(samples []float32) {
	if v.closed {
		panic("audio: VAD.Write after Close")
	}
	v.pending = append(v.pending, samples...)
	if len(samples) >= vadWindow {
		v.tail = append(v.tail[:0], samples[len(samples)-vadWindow:]...)
	} else {
		v.tail = append(v.tail, samples...)
		v.tail = v.tail[:copy(v.tail, v.tail[max(0, len(v.tail)-vadWindow):])]
	}
	n := 0
	for ; n+vadWindow <= len(v.pending); n += vadHop {
		v.frames = append(v.frames, v.a.analyze(v.pending[n:n+vadWindow]))
	}
	v.pending = v.pending[:copy(v.pending, v.pending[n:])]
	v.decide(false)
}

// Close ends the stream: every frame gets its probability. The frames
// whose window would run past the end are measured on the stream's last
// 32 ms instead (on zeros after it only when the stream is shorter), so
// that the end of a recording does not look like a sudden pause.
func (v *VAD) Close() {
	if v.closed {
		return
	}
	v.closed = true
	if len(v.pending) > 0 {
		last := make([]float32, vadWindow)
		copy(last[vadWindow-len(v.tail):], v.tail)
		if len(v.frames) == 0 && len(v.tail) < vadWindow {
			copy(last, v.tail) // a stream shorter than a window: pad after it
			clear(last[len(v.tail):])
		}
		f := v.a.analyze(last)
		for ; len(v.pending) > 0; v.pending = v.pending[min(vadHop, len(v.pending)):] {
			v.frames = append(v.frames, f)
		}
	}
	v.decide(true)
}

// Decided returns the number of frames (from the stream's start) whose
// probability is known.
func (v *VAD) Decided() int { return v.first + len(v.probs) }

// Probability returns frame i's speech probability; i must be in
// [Forgotten(), Decided()).
func (v *VAD) Probability(i int) float32 {
	if i < v.first || i >= v.first+len(v.probs) {
		panic(fmt.Sprintf("audio: VAD.Probability(%d) outside decided frames [%d, %d)", i, v.first, v.first+len(v.probs)))
	}
	return v.probs[i-v.first]
}

// Speech reports whether frame i's probability is above the threshold.
func (v *VAD) Speech(i int) bool { return v.Probability(i) > v.threshold }

// Analyzed returns the number of frames (from the stream's start) the
// detector has measured, decided or not.
func (v *VAD) Analyzed() int { return v.first + len(v.frames) }

// Provisional returns frame i's speech probability as the detector would
// give it if the stream ended now: without the context after it that it
// lacks yet, as Close decides the last frames. It is a guess, for frames
// in [Decided(), Analyzed()) (a decided frame gets its probability), that
// live transcription uses to start showing text before the decision.
func (v *VAD) Provisional(i int) float32 {
	if i < v.first+len(v.probs) {
		return v.Probability(i)
	}
	if i >= v.first+len(v.frames) {
		panic(fmt.Sprintf("audio: VAD.Provisional(%d) outside analyzed frames [%d, %d)", i, v.first, v.first+len(v.frames)))
	}
	return v.probability(i - v.first)
}

// Forgotten returns the first frame v still holds.
func (v *VAD) Forgotten() int { return v.first }

// Forget releases the frames before frame i (no further than the decided
// ones minus the context later decisions need).
func (v *VAD) Forget(i int) {
	i = min(i, v.first+len(v.probs)-vadFloorContext-2) // smoothEnergy looks 2 frames further
	if d := i - v.first; d > 0 {
		v.frames = v.frames[:copy(v.frames, v.frames[d:])]
		v.probs = v.probs[:copy(v.probs, v.probs[d:])]
		v.first = i
	}
}

// Probabilities runs the detector over a whole recording from a fresh
// start and appends each frame's speech probability to dst.
func (v *VAD) Probabilities(dst []float32, samples []float32) []float32 {
	v.Reset()
	v.Write(samples)
	v.Close()
	return append(dst, v.probs...)
}

// decide computes the probabilities that have all their context (all of
// them at the end of the stream).
func (v *VAD) decide(final bool) {
	n := len(v.frames)
	for j := len(v.probs); j < n; j++ {
		if !final && j+vadFloorContext+2 >= n { // smoothEnergy looks 2 frames further
			return
		}
		v.probs = append(v.probs, v.probability(j))
	}
}

// probability classifies frame j (an index into v.frames).
func (v *VAD) probability(j int) float32 {
	fr := v.frames
	lo, hi := max(0, j-vadContext), min(len(fr), j+vadContext+1)
	loud := float32(vadEnergyFloor)
	for _, f := range fr[lo:hi] {
		loud = max(loud, f.energy)
	}
	if loud < vadSilentDB {
		return 0 // silence: no spectrum was analysed, nothing to classify
	}
	vadContextFeatures(&v.feat, fr, j)
	if steadyNoise(fr, j, v.feat[0]-v.feat[1]) { // feat[0]−feat[1]: the noise floor
		return 0
	}
	return float32(vadNet.predict(v.feat[:]))
}

// Steady noise: a frame is not speech when the vadSteady frames
// (240 ms) that end with it, or those that start with it, hold no two
// consecutive voiced frames and frame energies within vadSteadyDB of
// each other (standard deviation), at least vadSteadyRise above the
// noise floor. Speech rises and falls by several dB within a syllable;
// broadband noise (hiss, white noise, a fan's rush) keeps the energy of
// 32 ms frames within a few tenths of a dB. The classifier alone, trained
// on noise that lasts the whole clip, calls such noise speech (p ≈ 0.5)
// where it starts or stops against a quieter background, as in the
// pauses of a recording whose speech was cleaned or gated: one-sided
// windows also catch the noise next to speech, whose ±240 ms context
// spans the step. Noise at the floor is left to the classifier, which
// knows it: there, under speech, the rule would take the weak edges of
// words buried in the noise.
const (
	vadSteady     = 13
	vadSteadyDB   = 0.5
	vadSteadyRise = 3
)

// steadyNoise reports whether frame j of fr starts or ends vadSteady
// frames of steady noise (see vadSteady) above the noise floor (dB).
func steadyNoise(fr []vadFrame, j int, floor float64) bool {
	return j+1 >= vadSteady && steady(fr[j+1-vadSteady:j+1], floor) ||
		j+vadSteady <= len(fr) && steady(fr[j:j+vadSteady], floor)
}

// steady reports whether the frames fr are steady noise above floor:
// none silent, no two consecutive ones voiced, their energies' standard
// deviation below vadSteadyDB and their mean vadSteadyRise above floor.
func steady(fr []vadFrame, floor float64) bool {
	var s, sq float64
	for k, f := range fr {
		if f.energy < vadSilentDB || f.harm > vadVoiced && k > 0 && fr[k-1].harm > vadVoiced {
			return false
		}
		e := float64(f.energy)
		s += e
		sq += e * e
	}
	n := float64(len(fr))
	m := s / n
	return sq/n-m*m < vadSteadyDB*vadSteadyDB && m >= floor+vadSteadyRise
}

// smoothEnergy is the mean energy of frames j−2 … j+2 (those that exist).
func smoothEnergy(fr []vadFrame, j int) float64 {
	lo, hi := max(0, j-2), min(len(fr), j+3)
	var s float64
	for _, f := range fr[lo:hi] {
		s += float64(f.energy)
	}
	return s / float64(hi-lo)
}

// vadContextFeatures fills x with the classifier's inputs for frame j of
// fr (see the package comment, Voice activity).
func vadContextFeatures(x *[vadFeatures]float64, fr []vadFrame, j int) {
	// Noise floor: the quietest smoothed energy within ±1 s.
	floor := math.Inf(1)
	for k := max(0, j-vadFloorContext); k < min(len(fr), j+vadFloorContext+1); k++ {
		floor = min(floor, smoothEnergy(fr, k))
	}
	lo, hi := max(0, j-vadContext), min(len(fr), j+vadContext+1)
	n := float64(hi - lo)
	var eSum, eSq, flat, harm, voiced, flux, low, relMax float64
	var pairs, steady float64
	relMax = math.Inf(-1)
	for k := lo; k < hi; k++ {
		f := fr[k]
		e := float64(f.energy)
		eSum += e
		eSq += e * e
		flat += float64(f.flat)
		harm += float64(f.harm)
		flux += float64(f.flux)
		low += float64(f.low)
		if f.harm > vadVoiced {
			voiced++
			if k > lo && fr[k-1].harm > vadVoiced {
				pairs++
				if fr[k-1].lag == f.lag {
					steady++
				}
			}
		}
		if k%2 == j%2 { // every other frame is enough for the peak
			relMax = max(relMax, smoothEnergy(fr, k)-floor)
		}
	}
	mean := eSum / n
	e := smoothEnergy(fr, j)
	x[0] = e
	x[1] = e - floor
	x[2] = relMax
	x[3] = math.Sqrt(max(0, eSq/n-mean*mean))
	x[4] = flat / n
	x[5] = harm / n
	x[6] = voiced / n
	x[7] = steady / max(1, pairs)
	x[8] = flux / n
	x[9] = low / n
}

// vadMLP is the detector's classifier: inputs standardized with mean and
// scale, one tanh hidden layer, a logistic output.
type vadMLP struct {
	mean, scale [vadFeatures]float64
	hidden      int
	w1          []float64 // hidden × vadFeatures
	b1          []float64 // hidden
	w2          []float64 // hidden
	b2          float64
}

// predict returns the probability of speech for the features x.
func (m *vadMLP) predict(x []float64) float64 {
	var z [vadFeatures]float64
	for i := range z {
		z[i] = (x[i] - m.mean[i]) / m.scale[i]
	}
	out := m.b2
	for h := range m.hidden {
		s := m.b1[h]
		for i, w := range m.w1[h*vadFeatures : (h+1)*vadFeatures] {
			s += w * z[i]
		}
		out += m.w2[h] * math.Tanh(s)
	}
	return 1 / (1 + math.Exp(-out))
}
