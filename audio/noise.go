package audio

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mjibson/go-dsp/fft"
)

// ErrSilent means a clip has no signal energy, so nothing can be scaled to
// a level or mixed at a signal-to-noise ratio.
var ErrSilent = errors.New("audio: silent audio")

// NoiseColor is the spectral slope of additive noise: power density
// proportional to 1/f^k, k = 0 (white), 1 (pink), 2 (brown).
type NoiseColor int

const (
	NoNoise    NoiseColor = iota // no noise
	WhiteNoise                   // flat spectrum: hiss, fans at a distance
	PinkNoise                    // −3 dB per octave: rain, crowd murmur, many machines
	BrownNoise                   // −6 dB per octave: rumble, traffic, wind
)

func (c NoiseColor) String() string {
	switch c {
	case NoNoise:
		return "none"
	case WhiteNoise:
		return "white"
	case PinkNoise:
		return "pink"
	case BrownNoise:
		return "brown"
	}
	return fmt.Sprintf("NoiseColor(%d)", int(c))
}

// NoiseLowCut is where coloured noise stops rising: below it the spectrum
// is zero. 1/f² growing without bound would put nearly all the power of
// brown noise in an inaudible drift, making its SNR meaningless.
const NoiseLowCut = 20.0 // Hz

// MakeNoise fills dst with Gaussian noise of the given colour at the
// sample rate, with unit mean power. White noise is drawn directly;
// coloured noise is white noise shaped in the frequency domain (amplitude
// scaled by f^(−k/2) from NoiseLowCut up, zero below), which gives the
// exact slope at any rate. It panics for NoNoise or an unknown colour.
func MakeNoise(dst []float32, c NoiseColor, rate int, r *rand.Rand) {
	if len(dst) == 0 {
		return
	}
	var k float64
	switch c {
	case WhiteNoise:
		for i := range dst {
			dst[i] = float32(r.NormFloat64())
		}
		normalizePower(dst)
		return
	case PinkNoise:
		k = 1
	case BrownNoise:
		k = 2
	default:
		panic(fmt.Sprintf("audio: MakeNoise(%v)", c))
	}
	n := nextPow2(len(dst))
	x := make([]float64, n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	spec := fft.FFTReal(x)
	for i := range spec {
		f := float64(min(i, n-i)) * float64(rate) / float64(n)
		if f < NoiseLowCut {
			spec[i] = 0
			continue
		}
		spec[i] *= complex(math.Pow(f, -k/2), 0)
	}
	y := fft.IFFT(spec)
	for i := range dst {
		dst[i] = float32(real(y[i]))
	}
	normalizePower(dst)
}

// AddNoise adds noise of colour c to x in place so that the ratio of the
// mean powers of x and the added noise, over the whole clip, is snr dB.
func AddNoise(x []float32, c NoiseColor, snr float64, rate int, r *rand.Rand) error {
	noise := make([]float32, len(x))
	MakeNoise(noise, c, rate, r)
	return MixNoise(x, noise, snr)
}

// MixNoise adds g·noise to x in place, g chosen so that the ratio of the
// mean powers of x and g·noise over the whole clip (pauses included) is
// snr dB:
//
//	SNR = 10·log10(P(x) / (g²·P(noise))),  g = √(P(x) / (P(noise)·10^(SNR/10))).
//
// It fails with ErrSilent when x or noise has no energy. It panics if
// the lengths differ (programmer error).
func MixNoise(x, noise []float32, snr float64) error {
	if len(x) != len(noise) {
		panic(fmt.Sprintf("audio: MixNoise of %d samples with %d of noise", len(x), len(noise)))
	}
	ps, pn := MeanPower(x), MeanPower(noise)
	if ps == 0 || pn == 0 {
		return ErrSilent
	}
	g := float32(math.Sqrt(ps / (pn * math.Pow(10, snr/10))))
	for i, v := range noise {
		x[i] += g * v
	}
	return nil
}

// MeanPower returns the mean of x² (0 for no samples), accumulated in
// float64.
func MeanPower(x []float32) float64 {
	if len(x) == 0 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	return s / float64(len(x))
}

// normalizePower scales x to unit mean power (leaving silence alone).
func normalizePower(x []float32) {
	if p := MeanPower(x); p > 0 {
		g := float32(1 / math.Sqrt(p))
		for i := range x {
			x[i] *= g
		}
	}
}

// nextPow2 returns the smallest power of two ≥ n (n ≥ 1).
func nextPow2(n int) int {
	p := 1
	for p < n {
		p <<= 1
	}
	return p
}
