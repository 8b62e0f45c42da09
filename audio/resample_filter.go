package audio

import (
	"fmt"
	"math"
)

// Resampling filter design. The constants below fix one design for every
// rate pair; the package documentation ("Resampling") explains the choice.
const (
	// resamplePassband is the passband edge as a fraction of the lower of
	// the two Nyquist frequencies: 0.9 keeps 0–7.2 kHz of a 16 kHz output.
	resamplePassband = 0.9
	// resampleStopband is the stopband edge, same unit. 1.0 means nothing
	// above the output's Nyquist frequency aliases into its band.
	resampleStopband = 1.0
	// resampleAttenuation is the stopband attenuation (and passband ripple
	// 20·log10(1+δ) with δ = 10^(-A/20)) of the Kaiser design, in dB.
	resampleAttenuation = 96.0
	// resampleMaxPhases bounds the polyphase table. Rate pairs that need
	// more phases (L > resampleMaxPhases after reducing from/to by their
	// GCD) interpolate linearly between P+1 stored phases, P ≤ 1024.
	resampleMaxPhases = 1024
	// resampleMaxTable bounds the table's size (float32 values, 4 MiB):
	// long filters, which steep downsampling needs, get fewer stored
	// phases, interpolated. Their response is smooth on the input grid
	// (the cutoff is far below the input's Nyquist frequency), so a few
	// hundred phases interpolate it accurately.
	resampleMaxTable = 1 << 20
	// resampleMaxTaps bounds the taps per output sample, which grow with
	// the downsampling ratio (about 122 per unit of from/to): 16384 taps
	// allow ratios up to about 130, e.g. 2 MHz to 16 kHz.
	resampleMaxTaps = 1 << 14
)

// polyphaseFilter is a windowed-sinc low-pass filter split into phases.
//
// Output sample n lies at input time t = i + φ with i integer and φ in
// [0, 1). It is Σ_j taps(φ)[j] · x[i - half + 1 + j] for j in [0, 2·half),
// where taps(φ)[j] = h(φ + half - 1 - j) and h is the prototype impulse
// response in units of input samples.
type polyphaseFilter struct {
	half   int       // taps on each side of the output instant
	phases int       // number of stored phases P (P+1 rows when interpolating)
	exact  bool      // phases == L: phase r/L is stored exactly
	taps   []float32 // rows of 2·half taps; row p is phase p/P
}

// kaiserBeta returns the Kaiser window shape parameter for a stopband
// attenuation of a dB (Kaiser 1974, as given by Oppenheim & Schafer eq. 7.62).
func kaiserBeta(a float64) float64 {
	switch {
	case a > 50:
		return 0.1102 * (a - 8.7)
	case a >= 21:
		return 0.5842*math.Pow(a-21, 0.4) + 0.07886*(a-21)
	default:
		return 0
	}
}

// besselI0 returns the modified Bessel function of the first kind of order
// zero, by its power series Σ (x²/4)^k / (k!)², which converges quickly for
// the β used here.
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	q := x * x / 4
	for k := 1; k < len(inverseSquares); k++ {
		term *= q * inverseSquares[k]
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return sum
}

// inverseSquares[k] is 1/k², so that besselI0 multiplies instead of divides.
var inverseSquares = func() (t [200]float64) {
	for k := 1; k < len(t); k++ {
		t[k] = 1 / float64(k*k)
	}
	return t
}()

// newPolyphaseFilter designs the anti-aliasing / anti-imaging filter for
// resampling from → to, where l = to/gcd is the number of exact phases.
// It fails when the filter would need more than resampleMaxTaps taps.
func newPolyphaseFilter(from, to, l int) (*polyphaseFilter, error) {
	nyquist := 0.5 * float64(min(from, to)) // Hz, the band both rates share
	fs := float64(from)
	cutoff := 0.5 * (resamplePassband + resampleStopband) * nyquist / fs // cycles per input sample
	transition := (resampleStopband - resamplePassband) * nyquist / fs
	// Kaiser's length estimate (Oppenheim & Schafer eq. 7.63), in input samples.
	length := (resampleAttenuation - 7.95) / (2.285 * 2 * math.Pi * transition)
	width := length / 2 // the window spans [-width, width]
	half := int(math.Ceil(width))
	if 2*half > resampleMaxTaps {
		return nil, fmt.Errorf("%d Hz to %d Hz needs a %d-tap filter, more than the %d supported (downsampling ratio above about %d)",
			from, to, 2*half, resampleMaxTaps, resampleMaxTaps/123)
	}
	beta := kaiserBeta(resampleAttenuation)
	i0beta := besselI0(beta)
	h := func(t float64) float64 {
		if math.Abs(t) >= width {
			return 0
		}
		r := t / width
		w := besselI0(beta*math.Sqrt(1-r*r)) / i0beta
		x := 2 * cutoff * t
		sinc := 1.0
		if x != 0 {
			sinc = math.Sin(math.Pi*x) / (math.Pi * x)
		}
		return 2 * cutoff * sinc * w
	}

	k := 2 * half
	f := &polyphaseFilter{half: half, phases: l, exact: true}
	rows := l
	if maxPhases := min(resampleMaxPhases, resampleMaxTable/k-1); l > maxPhases {
		f.phases, f.exact = maxPhases, false
		rows = maxPhases + 1
	}
	f.taps = make([]float32, rows*k)
	row := make([]float64, k)
	// h is even, so phase 1−φ is phase φ reversed: compute the first half
	// of the rows and mirror them.
	for p := range (rows + 2) / 2 {
		phi := float64(p) / float64(f.phases)
		sum := 0.0
		for j := range k {
			row[j] = h(phi + float64(half-1-j))
			sum += row[j]
		}
		// Unit gain at DC for every phase, so a constant stays constant.
		taps := f.taps[p*k : (p+1)*k]
		for j := range k {
			taps[j] = float32(row[j] / sum)
		}
		// Phase (P−p)/P: with exact phases only 1 ≤ p < L mirror (phase
		// 1 is not stored); interpolated tables also store phase P/P.
		if q := f.phases - p; q > p && q < rows {
			mirror := f.taps[q*k : (q+1)*k]
			for j := range k {
				mirror[k-1-j] = taps[j]
			}
		}
	}
	return f, nil
}

// row returns the taps of stored phase p.
func (f *polyphaseFilter) row(p int) []float32 {
	k := 2 * f.half
	return f.taps[p*k : (p+1)*k]
}

// dotFloat32 returns Σ h[j]·x[j] over len(h) terms, with four partial sums so the
// additions pipeline.
func dotFloat32(h, x []float32) float32 {
	x = x[:len(h)]
	var s0, s1, s2, s3 float32
	j := 0
	for ; len(h)-j >= 4; j += 4 {
		hj, xj := h[j:j+4:j+4], x[j:j+4:j+4]
		s0 += hj[0] * xj[0]
		s1 += hj[1] * xj[1]
		s2 += hj[2] * xj[2]
		s3 += hj[3] * xj[3]
	}
	for ; j < len(h); j++ {
		s0 += h[j] * x[j]
	}
	return (s0 + s1) + (s2 + s3)
}
