package audio

import (
	"math"
	"math/cmplx"
)

// Frame analysis of the voice activity detector (see VAD). At 16 kHz a
// frame is 512 samples (32 ms, Hann-windowed) every 320 samples (20 ms):
// long enough to hold two periods of a 70 Hz voice, short enough to follow
// syllables.
const (
	vadRate        = 16000
	vadHop         = 320 // 20 ms
	vadWindow      = 512 // 32 ms, also the FFT length
	vadBands       = 16  // log band energies for the spectral flux
	vadDecimate    = 4   // pitch analysis at 4 kHz
	vadMinLag      = 10  // 2.5 ms at 4 kHz: 400 Hz
	vadMaxLag      = 60  // 15 ms: 67 Hz
	vadSilentDB    = -80 // below this frame energy the spectrum is not analysed
	vadEnergyFloor = -100
)

// vadFrame holds the per-frame measurements the detector's context
// features are built from.
type vadFrame struct {
	energy float32 // 10·log10(mean square), dBFS, ≥ −100
	flat   float32 // spectral flatness 250 Hz–4 kHz in dB (≤ 0; white noise ≈ −2.5)
	harm   float32 // normalized autocorrelation peak at 67–400 Hz (voicing)
	lag    int16   // its lag at 4 kHz (0 when unvoiced)
	flux   float32 // mean |Δ| of the log band energies from the frame before, dB
	low    float32 // energy below 1 kHz over 100 Hz–8 kHz, dB (≤ 0)
}

// vadAnalyzer turns 16 kHz samples into vadFrames. Its buffers are reused
// from frame to frame: it allocates nothing per frame.
type vadAnalyzer struct {
	window []float64    // Hann
	fft    *realFFT     // 512 points
	x      []float64    // windowed frame
	spec   []complex128 // its spectrum, bins 0 … 256
	power  []float64
	bands  [vadBands]float64 // log band energies of the previous frame
	edges  [vadBands + 1]int // band edges in bins
	prev   bool              // bands holds a frame
	dec    []float64         // decimated frame for pitch
}

func newVADAnalyzer() *vadAnalyzer {
	a := &vadAnalyzer{
		window: make([]float64, vadWindow),
		fft:    newRealFFT(vadWindow),
		x:      make([]float64, vadWindow),
		spec:   make([]complex128, vadWindow/2+1),
		power:  make([]float64, vadWindow/2+1),
		dec:    make([]float64, vadWindow/vadDecimate),
	}
	for i := range a.window {
		a.window[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(vadWindow))
	}
	// Bands equally spaced on the mel scale from 100 Hz to 8 kHz.
	lo, hi := melScale(100), melScale(vadRate/2)
	for b := range a.edges {
		f := 700 * (math.Exp((lo+(hi-lo)*float64(b)/vadBands)/1127) - 1)
		a.edges[b] = int(math.Round(f * vadWindow / vadRate))
	}
	return a
}

// analyze measures one frame of vadWindow samples.
func (a *vadAnalyzer) analyze(s []float32) vadFrame {
	var mean, ms float64
	for _, v := range s {
		mean += float64(v)
	}
	mean /= float64(len(s))
	for _, v := range s {
		d := float64(v) - mean
		ms += d * d
	}
	ms /= float64(len(s))
	f := vadFrame{energy: float32(max(vadEnergyFloor, 10*math.Log10(ms+1e-12)))}
	if f.energy < vadSilentDB {
		// Nothing to analyse: digital silence or near it costs one pass.
		a.prev = false
		return f
	}
	for i, v := range s {
		a.x[i] = (float64(v) - mean) * a.window[i]
	}
	a.fft.transform(a.spec, a.x)
	for k, c := range a.spec {
		a.power[k] = real(c)*real(c) + imag(c)*imag(c) + 1e-15
	}
	// Flatness over 250 Hz–4 kHz: geometric over arithmetic mean.
	k0, k1 := 250*vadWindow/vadRate, 4000*vadWindow/vadRate
	var logSum, sum float64
	for k := k0; k < k1; k++ {
		logSum += math.Log(a.power[k])
		sum += a.power[k]
	}
	n := float64(k1 - k0)
	f.flat = float32(10 / math.Ln10 * (logSum/n - math.Log(sum/n)))
	// Low-band share and the band energies for the flux.
	var low, all float64
	var flux float64
	for b := range vadBands {
		var e float64
		for k := a.edges[b]; k < max(a.edges[b+1], a.edges[b]+1); k++ {
			e += a.power[k]
		}
		all += e
		if a.edges[b+1] <= 1000*vadWindow/vadRate {
			low += e
		}
		le := 10 * math.Log10(e)
		flux += math.Abs(le - a.bands[b])
		a.bands[b] = le
	}
	if a.prev {
		f.flux = float32(flux / vadBands)
	}
	a.prev = true
	f.low = float32(10 * math.Log10((low+1e-15)/all))
	f.harm, f.lag = a.pitch(s)
	return f
}

// pitch returns the largest normalized cross-correlation of the frame,
// decimated to 4 kHz by 4-sample means, with itself delayed by 2.5–15 ms,
// and that delay (Talkin's NCCF, as in RAPT): about 1 for a steady
// periodic sound, 0.5–0.9 for voiced speech, near 0 for noise.
func (a *vadAnalyzer) pitch(s []float32) (float32, int16) {
	for i := range a.dec {
		var v float64
		for _, x := range s[i*vadDecimate : (i+1)*vadDecimate] {
			v += float64(x)
		}
		a.dec[i] = v
	}
	var r [vadMaxLag + 1]float64
	best := 0.0
	for lag := vadMinLag; lag <= vadMaxLag; lag++ {
		var xy, xx, yy float64
		x, y := a.dec[:len(a.dec)-lag], a.dec[lag:]
		for i, v := range x {
			w := y[i]
			xy += v * w
			xx += v * v
			yy += w * w
		}
		if xx > 0 && yy > 0 {
			r[lag] = xy / math.Sqrt(xx*yy)
			best = max(best, r[lag])
		}
	}
	// The period is the shortest lag within 5 % of the peak: a steady
	// tone then keeps one lag instead of hopping among its multiples.
	bestLag := 0
	for lag := vadMinLag; lag <= vadMaxLag && best > 0; lag++ {
		if r[lag] >= 0.95*best {
			bestLag = lag
			break
		}
	}
	return float32(best), int16(bestLag)
}

// realFFT is a radix-2 FFT of real input of a power-of-two length n,
// computed as a complex FFT of n/2 points (even samples real, odd
// imaginary) and untangled; its tables are built once.
type realFFT struct {
	n       int
	twiddle []complex128 // e^{−2πik/(n/2)}, k < n/4
	untwist []complex128 // e^{−2πik/n}, k ≤ n/2
	rev     []int        // bit reversal of n/2 points
	z       []complex128
}

func newRealFFT(n int) *realFFT {
	h := n / 2
	f := &realFFT{n: n, twiddle: make([]complex128, h/2), untwist: make([]complex128, h+1), rev: make([]int, h), z: make([]complex128, h)}
	for k := range f.twiddle {
		f.twiddle[k] = cmplx.Exp(complex(0, -2*math.Pi*float64(k)/float64(h)))
	}
	for k := range f.untwist {
		f.untwist[k] = cmplx.Exp(complex(0, -2*math.Pi*float64(k)/float64(n)))
	}
	bits := 0
	for 1<<bits < h {
		bits++
	}
	for i := range f.rev {
		r := 0
		for b := range bits {
			if i&(1<<b) != 0 {
				r |= 1 << (bits - 1 - b)
			}
		}
		f.rev[i] = r
	}
	return f
}

// transform writes the DFT bins 0 … n/2 of x (length n) to dst.
func (f *realFFT) transform(dst []complex128, x []float64) {
	h := len(f.z)
	for i := range h {
		f.z[f.rev[i]] = complex(x[2*i], x[2*i+1])
	}
	for size := 2; size <= h; size *= 2 {
		half, step := size/2, h/size
		for start := 0; start < h; start += size {
			for k := range half {
				t := f.twiddle[k*step] * f.z[start+k+half]
				u := f.z[start+k]
				f.z[start+k] = u + t
				f.z[start+k+half] = u - t
			}
		}
	}
	// X[k] = E[k] + e^{−2πik/n}·O[k], with E, O the spectra of the even
	// and odd samples recovered from Z = E + i·O.
	for k := 0; k <= h; k++ {
		zk := f.z[k%h]
		zc := cmplx.Conj(f.z[(h-k)%h])
		e := (zk + zc) / 2
		o := (zk - zc) / complex(0, 2)
		dst[k] = e + f.untwist[k]*o
	}
}
