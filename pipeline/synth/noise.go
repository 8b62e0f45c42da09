package synth

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/mjibson/go-dsp/fft"
)

// ErrSilent means a clip has no signal energy, so nothing can be scaled to
// a level or mixed at a signal-to-noise ratio.
var ErrSilent = errors.New("synth: silent audio")

// NoiseColor is the spectral slope of additive noise: power density
// proportional to 1/f^k, k = 0 (white), 1 (pink), 2 (brown).
type NoiseColor int

const (
	None  NoiseColor = iota // no noise
	White                   // flat spectrum: hiss, fans at a distance
	Pink                    // −3 dB per octave: rain, crowd murmur, many machines
	Brown                   // −6 dB per octave: rumble, traffic, wind
)

func (c NoiseColor) String() string {
	switch c {
	case None:
		return "none"
	case White:
		return "white"
	case Pink:
		return "pink"
	case Brown:
		return "brown"
	}
	return fmt.Sprintf("NoiseColor(%d)", int(c))
}

// noiseLowCut is where coloured noise stops rising: below it the spectrum
// is zero. 1/f² growing without bound would put nearly all the power of
// brown noise in an inaudible drift, making its SNR meaningless.
const noiseLowCut = 20.0 // Hz

// MakeNoise fills dst with Gaussian noise of the given colour at the
// sample rate, with unit mean power. White noise is drawn directly;
// coloured noise is white noise shaped in the frequency domain (amplitude
// scaled by f^(−k/2) from noiseLowCut up, zero below), which gives the
// exact slope at any rate. It panics for None or an unknown colour.
func MakeNoise(dst []float32, c NoiseColor, rate int, r *rand.Rand) {
	if len(dst) == 0 {
		return
	}
	var k float64
	switch c {
	case White:
		for i := range dst {
			dst[i] = float32(r.NormFloat64())
		}
		normalizePower(dst)
		return
	case Pink:
		k = 1
	case Brown:
		k = 2
	default:
		panic(fmt.Sprintf("synth: MakeNoise(%v)", c))
	}
	n := nextPow2(len(dst))
	x := make([]float64, n)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	spec := fft.FFTReal(x)
	for i := range spec {
		f := float64(min(i, n-i)) * float64(rate) / float64(n)
		if f < noiseLowCut {
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

// AddNoise adds noise to x in place so that the ratio of the mean powers
// of x and the added noise, over the whole clip, is snr dB.
func AddNoise(x []float32, c NoiseColor, snr float64, rate int, r *rand.Rand) error {
	ps := meanPower(x)
	if ps == 0 {
		return ErrSilent
	}
	noise := make([]float32, len(x))
	MakeNoise(noise, c, rate, r)
	g := float32(math.Sqrt(ps / (meanPower(noise) * math.Pow(10, snr/10))))
	for i, v := range noise {
		x[i] += g * v
	}
	return nil
}

// meanPower returns the mean of x², accumulated in float64.
func meanPower(x []float32) float64 {
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
	if p := meanPower(x); p > 0 {
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
