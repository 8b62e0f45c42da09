package audio

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/mjibson/go-dsp/fft"
)

// FbankOptions configures log-mel filterbank features. The zero value (and
// a nil *FbankOptions) gives Kaldi's compute-fbank-feats defaults with 80
// bins and no dither, which is also torchaudio.compliance.kaldi.fbank with
// num_mel_bins=80.
type FbankOptions struct {
	// FrameLength is the analysis window length. 0 means 25 ms. The
	// window holds rate·FrameLength samples, rounded down.
	FrameLength time.Duration
	// FrameShift is the hop between frame starts. 0 means 10 ms.
	FrameShift time.Duration
	// MelBins is the number of mel filters, at least 3. 0 means 80.
	MelBins int
	// LowFreq is the low edge of the first mel filter in Hz. 0 means 20 Hz.
	LowFreq float64
	// HighFreq is the high edge of the last mel filter in Hz. 0 means the
	// Nyquist frequency; a negative value is an offset below it (Kaldi's
	// convention).
	HighFreq float64
	// Window is the analysis window. The zero value is Povey (Kaldi's).
	Window Window
	// Preemphasis is the coefficient c of x[i] −= c·x[i−1]. 0 means 0.97;
	// set NoPreemphasis to disable it.
	Preemphasis   float64
	NoPreemphasis bool
	// KeepDC keeps each frame's mean; by default it is subtracted.
	KeepDC bool
	// Dither is the standard deviation of Gaussian noise added to every
	// sample, in sample units (Kaldi's dither 1 on 16-bit audio is 1/32768
	// here). 0, the default, means none and keeps features deterministic.
	Dither float64
	// Rand draws the dither noise; it must be set when Dither > 0.
	Rand *rand.Rand
	// Warp is the vocal tract length perturbation factor α (VTLP, Jaitly
	// & Hinton 2013), in [MinWarp, MaxWarp]: energy at f Hz is weighed
	// by the mel filters as if it were at about α·f (see vtlpWarp). 0 and
	// 1 mean no warp, and give exactly the features of an unwarped Fbank.
	Warp float64
	// WarpCutoff is F_hi of the warp in Hz, below which frequencies are
	// scaled by α; 0 means 0.6 of the Nyquist frequency (4800 Hz at
	// 16 kHz, Jaitly & Hinton's value). It must stay below the Nyquist
	// frequency.
	WarpCutoff float64
}

// fbankConfig is FbankOptions with the defaults filled in.
type fbankConfig struct {
	FbankOptions
	preemphasis float64 // 0 when disabled
}

// Fbank computes Kaldi-compatible log-mel filterbank features. It keeps
// its tables (window, mel filters) and scratch buffers across calls, so
// reusing one Fbank and one Features allocates almost nothing per call.
//
// An Fbank is not safe for concurrent use; give each goroutine its own.
type Fbank struct {
	cfg fbankConfig

	// Tables for the rate they were built for (0: none yet).
	rate        int
	size, shift int // window length and hop, in samples
	padded      int // FFT length: size rounded up to a power of two
	window      []float64
	mel         []melFilter
	frames      [2][]float64 // the two frames packed in one FFT
	packed      []complex128 // FFT input
	power       [2][]float64 // power spectra, bins 0 … padded/2
}

// NewFbank returns an Fbank with the given options; nil means defaults.
func NewFbank(opts *FbankOptions) (*Fbank, error) {
	var o FbankOptions
	if opts != nil {
		o = *opts
	}
	switch {
	case o.FrameLength < 0:
		return nil, fmt.Errorf("audio: fbank: frame length %v must not be negative", o.FrameLength)
	case o.FrameShift < 0:
		return nil, fmt.Errorf("audio: fbank: frame shift %v must not be negative", o.FrameShift)
	case o.MelBins < 0 || o.MelBins > 0 && o.MelBins < 3:
		return nil, fmt.Errorf("audio: fbank: %d mel bins; need at least 3", o.MelBins)
	case o.LowFreq < 0:
		return nil, fmt.Errorf("audio: fbank: low frequency %g Hz must not be negative", o.LowFreq)
	case o.Window != Povey && o.Window != Hann:
		return nil, fmt.Errorf("audio: fbank: unknown window %v", o.Window)
	case o.Preemphasis < 0 || o.Preemphasis > 1:
		return nil, fmt.Errorf("audio: fbank: pre-emphasis %g must be in [0, 1]", o.Preemphasis)
	case o.Dither < 0 || math.IsNaN(o.Dither):
		return nil, fmt.Errorf("audio: fbank: dither %g must not be negative", o.Dither)
	case o.Dither > 0 && o.Rand == nil:
		return nil, errors.New("audio: fbank: dither needs a random source (FbankOptions.Rand)")
	case o.WarpCutoff < 0 || math.IsNaN(o.WarpCutoff):
		return nil, fmt.Errorf("audio: fbank: warp cutoff %g Hz must not be negative", o.WarpCutoff)
	}
	if err := checkWarp(o.Warp); err != nil {
		return nil, err
	}
	if o.FrameLength == 0 {
		o.FrameLength = 25 * time.Millisecond
	}
	if o.FrameShift == 0 {
		o.FrameShift = 10 * time.Millisecond
	}
	if o.MelBins == 0 {
		o.MelBins = 80
	}
	if o.LowFreq == 0 {
		o.LowFreq = 20
	}
	if o.Preemphasis == 0 {
		o.Preemphasis = 0.97
	}
	if o.Warp == 0 {
		o.Warp = 1
	}
	cfg := fbankConfig{FbankOptions: o, preemphasis: o.Preemphasis}
	if o.NoPreemphasis {
		cfg.preemphasis = 0
	}
	return &Fbank{cfg: cfg}, nil
}

// Bins returns the number of mel bins per frame.
func (fb *Fbank) Bins() int { return fb.cfg.MelBins }

// Frames returns how many frames Compute makes of n samples at the given
// rate: 1 + ⌊(n − window)/shift⌋ when n holds at least one window, else 0
// (Kaldi's snip_edges=true: only whole windows, the first starting at
// sample 0).
func (fb *Fbank) Frames(n, rate int) int {
	size, shift := fb.windowSamples(rate)
	if size < 1 || shift < 1 || n < size {
		return 0
	}
	return 1 + (n-size)/shift
}

// windowSamples returns the window length and hop in samples at rate.
func (fb *Fbank) windowSamples(rate int) (size, shift int) {
	return durationSamples(fb.cfg.FrameLength, rate), durationSamples(fb.cfg.FrameShift, rate)
}

// durationSamples returns ⌊d·rate⌋, the whole samples in d at rate, without
// overflowing for long durations.
func durationSamples(d time.Duration, rate int) int {
	whole, frac := d/time.Second, d%time.Second
	return int(int64(whole)*int64(rate) + int64(frac)*int64(rate)/int64(time.Second))
}

// Compute stores in dst the log-mel features of mono samples at the given
// rate, reusing dst.Data when it is large enough. dst gets Frames(len,
// rate) frames of Bins() values; audio shorter than one window gives 0
// frames and no error. Samples are in [-1, 1], as this package decodes
// them; Kaldi's own tools read 16-bit integers, so their features are
// these plus 2·ln 32768 ≈ 20.79 (where not floored).
//
// Per frame, as in Kaldi: add dither; subtract the mean; pre-emphasize;
// multiply by the window; zero-pad to a power of two; take the power
// spectrum |FFT|²; weigh it by the mel filters; take the natural log,
// with energies floored at the float32 machine epsilon (1.19e-7).
func (fb *Fbank) Compute(dst *Features, samples []float32, rate int) error {
	if dst == nil {
		return errors.New("audio: fbank: nil destination")
	}
	if err := fb.setRate(rate); err != nil {
		return err
	}
	frames := fb.Frames(len(samples), rate)
	dst.resize(frames, fb.cfg.MelBins)
	for t := 0; t < frames; t += 2 {
		pair := min(2, frames-t)
		for j := range pair {
			start := (t + j) * fb.shift
			fb.prepare(fb.frames[j], samples[start:start+fb.size])
		}
		if pair == 1 {
			clear(fb.frames[1])
		}
		fb.powerSpectra()
		for j := range pair {
			row := dst.Row(t + j)
			for b := range fb.mel {
				row[b] = float32(math.Log(max(fb.mel[b].apply(fb.power[j]), fbankEpsilon)))
			}
		}
	}
	return nil
}

// fbankEpsilon floors mel energies before the log, as Kaldi does with
// std::numeric_limits<float>::epsilon().
const fbankEpsilon = 1.1920928955078125e-07

// setRate builds the tables for rate unless they are already built (the
// mel filters again after SetWarp).
func (fb *Fbank) setRate(rate int) error {
	if rate <= 0 {
		return fmt.Errorf("audio: fbank: sample rate %d must be positive", rate)
	}
	if rate == fb.rate {
		if fb.mel == nil {
			mel, err := fb.melBank(rate, fb.padded)
			fb.mel = mel
			return err
		}
		return nil
	}
	size, shift := fb.windowSamples(rate)
	if size < 2 {
		return fmt.Errorf("audio: fbank: frame length %v is %d samples at %d Hz; need at least 2", fb.cfg.FrameLength, size, rate)
	}
	if shift < 1 {
		return fmt.Errorf("audio: fbank: frame shift %v is less than a sample at %d Hz", fb.cfg.FrameShift, rate)
	}
	padded := 1
	for padded < size {
		padded *= 2
	}
	mel, err := fb.melBank(rate, padded)
	if err != nil {
		return err
	}
	fft.EnsureRadix2Factors(padded) // go-dsp caches twiddles per size
	fb.rate, fb.size, fb.shift, fb.padded = rate, size, shift, padded
	fb.window = fb.cfg.Window.coefficients(size)
	fb.mel = mel
	for j := range fb.frames {
		fb.frames[j] = make([]float64, size)
		fb.power[j] = make([]float64, padded/2+1)
	}
	fb.packed = make([]complex128, padded)
	return nil
}

// melBank builds the mel filters, warped by fb.cfg.Warp, for a
// padded-point FFT at rate.
func (fb *Fbank) melBank(rate, padded int) ([]melFilter, error) {
	warp, err := newVTLPWarp(fb.cfg.Warp, fb.cfg.WarpCutoff, rate)
	if err != nil {
		return nil, fmt.Errorf("audio: fbank: %w", err)
	}
	mel, err := newMelBank(fb.cfg.MelBins, padded, rate, fb.cfg.LowFreq, fb.cfg.HighFreq, warp)
	if err != nil {
		return nil, fmt.Errorf("audio: fbank: %w", err)
	}
	return mel, nil
}

// prepare writes into x (len fb.size) the frame src after dither, DC
// removal, pre-emphasis and windowing, in two passes over the frame.
func (fb *Fbank) prepare(x []float64, src []float32) {
	var sum float64
	for i, v := range src {
		x[i] = float64(v)
		if fb.cfg.Dither > 0 {
			x[i] += fb.cfg.Dither * fb.cfg.Rand.NormFloat64()
		}
		sum += x[i]
	}
	mean := sum / float64(len(x))
	if fb.cfg.KeepDC {
		mean = 0
	}
	// With DC removal, y[i] = (x[i]−μ) − c·(x[i−1]−μ) = x[i] − c·x[i−1] − (1−c)·μ,
	// and y[0] = (1−c)·(x[0]−μ), Kaldi's replicate padding; going
	// backwards lets x[i−1] be read before it is overwritten.
	c := fb.cfg.preemphasis
	w := fb.window[:len(x)]
	bias := (1 - c) * mean
	for i := len(x) - 1; i > 0; i-- {
		x[i] = (x[i] - c*x[i-1] - bias) * w[i]
	}
	x[0] = (1 - c) * (x[0] - mean) * w[0]
}

// powerSpectra computes the power spectra of fb.frames[0] and fb.frames[1]
// with one complex FFT: for real a and b, FFT(a + ib) = A + iB, and
// A[k] = (Z[k] + conj Z[N−k])/2, B[k] = (Z[k] − conj Z[N−k])/2i.
func (fb *Fbank) powerSpectra() {
	a, b := fb.frames[0], fb.frames[1]
	for i := range a {
		fb.packed[i] = complex(a[i], b[i])
	}
	clear(fb.packed[len(a):])
	z := fft.FFT(fb.packed)
	n := len(z)
	for k := range fb.power[0] {
		zk := z[k]
		zn := z[(n-k)&(n-1)]
		zn = complex(real(zn), -imag(zn))
		sa, sb := zk+zn, zk-zn
		fb.power[0][k] = 0.25 * (real(sa)*real(sa) + imag(sa)*imag(sa))
		fb.power[1][k] = 0.25 * (real(sb)*real(sb) + imag(sb)*imag(sb))
	}
}
