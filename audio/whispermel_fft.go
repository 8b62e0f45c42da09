package audio

import "math"

// whisperRFFT is the 400-point real DFT of Whisper's front end in
// float64: the real signal is packed as 200 complex values (even samples
// real, odd imaginary), transformed by a mixed-radix (2·2·2·5·5)
// Cooley–Tukey FFT, and split into the 201 bins of the real transform:
//
//	z[j] = x[2j] + i·x[2j+1],   Z = DFT₂₀₀(z)
//	X[k] = (Z[k] + Z̄[200−k])/2 − i·W₄₀₀ᵏ·(Z[k] − Z̄[200−k])/2,   k = 0 … 200
//
// (Z[200] = Z[0], W₄₀₀ = e^(−2πi/400)). Rounding is about 1e-16 of the
// frame's energy, far below float32's: torch's float32 FFT, the
// reference, is the noisier of the two.
type whisperRFFT struct {
	twiddle []complex128 // W₂₀₀ʲ, j < 200
	split   []complex128 // W₄₀₀ᵏ, k ≤ 200
	z       []complex128 // scratch: the packed signal
	out     []complex128 // scratch: its transform
}

// whisperRFFTFactors are the radices of the 200-point transform, outermost
// first.
var whisperRFFTFactors = []int{2, 2, 2, 5, 5}

func newWhisperRFFT() *whisperRFFT {
	const n = WhisperFFT / 2
	f := &whisperRFFT{
		twiddle: make([]complex128, n),
		split:   make([]complex128, n+1),
		z:       make([]complex128, n),
		out:     make([]complex128, n),
	}
	for j := range f.twiddle {
		s, c := math.Sincos(-2 * math.Pi * float64(j) / n)
		f.twiddle[j] = complex(c, s)
	}
	for k := range f.split {
		s, c := math.Sincos(-2 * math.Pi * float64(k) / WhisperFFT)
		f.split[k] = complex(c, s)
	}
	return f
}

// power writes |X[k]|² for k = 0 … 200 of the real frame x (400 samples)
// to dst.
func (f *whisperRFFT) power(dst []float64, x []float64) {
	const n = WhisperFFT / 2
	for j := range f.z {
		f.z[j] = complex(x[2*j], x[2*j+1])
	}
	f.transform(f.out, f.z, n, 1, whisperRFFTFactors)
	z := f.out
	for k := 0; k <= n; k++ {
		a, b := z[k%n], z[(n-k)%n]
		b = complex(real(b), -imag(b))
		even := (a + b) * 0.5
		odd := (a - b) * complex(0, -0.5)
		x := even + f.split[k]*odd
		dst[k] = real(x)*real(x) + imag(x)*imag(x)
	}
}

// transform writes to out (n values) the DFT of in[0], in[stride], …,
// in[(n−1)·stride], splitting by factors[0] and recursing.
func (f *whisperRFFT) transform(out, in []complex128, n, stride int, factors []int) {
	r := factors[0]
	m := n / r
	if m == 1 {
		for j := range r {
			out[j] = in[j*stride]
		}
	} else {
		for j := range r {
			f.transform(out[j*m:(j+1)*m], in[j*stride:], m, stride*r, factors[1:])
		}
	}
	step := len(f.twiddle) / n // W_n^(jk) = W₂₀₀^(jk·step)
	switch r {
	case 2:
		for k := range m {
			t0, t1 := out[k], out[m+k]*f.twiddle[k*step]
			out[k], out[m+k] = t0+t1, t0-t1
		}
	case 5:
		const (
			c1 = 0.30901699437494745 // cos(2π/5)
			c2 = -0.8090169943749475 // cos(4π/5)
			s1 = 0.9510565162951535  // sin(2π/5)
			s2 = 0.5877852522924731  // sin(4π/5)
		)
		for k := range m {
			t0 := out[k]
			t1 := out[m+k] * f.twiddle[k*step]
			t2 := out[2*m+k] * f.twiddle[2*k*step]
			t3 := out[3*m+k] * f.twiddle[3*k*step]
			t4 := out[4*m+k] * f.twiddle[4*k*step]
			a1, a2, b1, b2 := t1+t4, t2+t3, t1-t4, t2-t3
			p1 := t0 + complex(c1, 0)*a1 + complex(c2, 0)*a2
			p2 := t0 + complex(c2, 0)*a1 + complex(c1, 0)*a2
			q1 := complex(s1, 0)*b1 + complex(s2, 0)*b2 // X1 = p1 − i·q1
			q2 := complex(s2, 0)*b1 - complex(s1, 0)*b2 // X2 = p2 − i·q2
			iq1 := complex(-imag(q1), real(q1))
			iq2 := complex(-imag(q2), real(q2))
			out[k] = t0 + a1 + a2
			out[m+k] = p1 - iq1
			out[2*m+k] = p2 - iq2
			out[3*m+k] = p2 + iq2
			out[4*m+k] = p1 + iq1
		}
	default:
		panic("audio: whisperRFFT: unsupported radix") // factors are fixed above
	}
}
