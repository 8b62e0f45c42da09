package synth

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/mjibson/go-dsp/fft"
)

// tone returns n samples of a sine at f Hz.
func tone(n int, f, amp float64, rate int) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(amp * math.Sin(2*math.Pi*f*float64(i)/float64(rate)))
	}
	return x
}

func db(p float64) float64 { return 10 * math.Log10(p) }

func TestAddNoiseSNR(t *testing.T) {
	speech := tone(SampleRate, 300, 0.5, SampleRate)
	for i := range speech {
		speech[i] += float32(0.2 * math.Sin(float64(i)*0.37)) // a second partial
	}
	for _, c := range []NoiseColor{White, Pink, Brown} {
		for _, snr := range []float64{-5, 10, 25, 40} {
			t.Run(fmt.Sprintf("%s/%gdB", c, snr), func(t *testing.T) {
				x := append([]float32(nil), speech...)
				if err := AddNoise(x, c, snr, SampleRate, rand.New(rand.NewPCG(1, 2))); err != nil {
					t.Fatal(err)
				}
				noise := make([]float32, len(x))
				for i := range x {
					noise[i] = x[i] - speech[i]
				}
				got := db(meanPower(speech) / meanPower(noise))
				if math.Abs(got-snr) > 0.1 {
					t.Errorf("%s noise at %g dB: measured %.3f dB", c, snr, got)
				}
			})
		}
	}
	if err := AddNoise(make([]float32, 100), White, 10, SampleRate, rand.New(rand.NewPCG(1, 2))); !errors.Is(err, ErrSilent) {
		t.Errorf("noise on silence: %v, want ErrSilent", err)
	}
}

// bandPower returns the power of x in [lo, hi) Hz.
func bandPower(x []float32, rate int, lo, hi float64) float64 {
	n := nextPow2(len(x))
	a := make([]float64, n)
	for i, v := range x {
		a[i] = float64(v)
	}
	spec := fft.FFTReal(a)
	var p float64
	for k := 1; k < n/2; k++ {
		if f := float64(k) * float64(rate) / float64(n); f >= lo && f < hi {
			p += cmplx.Abs(spec[k]) * cmplx.Abs(spec[k])
		}
	}
	return p
}

func TestNoiseSlope(t *testing.T) {
	tests := []struct {
		color NoiseColor
		slope float64 // dB per octave of band power per Hz
	}{
		{White, 0},
		{Pink, -3.01},
		{Brown, -6.02},
	}
	x := make([]float32, 1<<16)
	for _, tc := range tests {
		t.Run(tc.color.String(), func(t *testing.T) {
			MakeNoise(x, tc.color, SampleRate, rand.New(rand.NewPCG(3, 4)))
			if p := meanPower(x); math.Abs(p-1) > 1e-4 {
				t.Errorf("mean power %g, want 1", p)
			}
			// Power density in octaves 125–250 Hz … 2–4 kHz.
			var prev float64
			for lo := 125.0; lo < 4000; lo *= 2 {
				dens := db(bandPower(x, SampleRate, lo, 2*lo) / lo)
				if lo > 125 {
					if d := dens - prev; math.Abs(d-tc.slope) > 0.5 {
						t.Errorf("octave %g–%g Hz: %.2f dB from the one below, want %.2f", lo, 2*lo, d, tc.slope)
					}
				}
				prev = dens
			}
			if tc.color != White {
				if p := bandPower(x, SampleRate, 1, noiseLowCut) / bandPower(x, SampleRate, 1, SampleRate); p > 1e-12 {
					t.Errorf("fraction %g of the power below %g Hz, want none", p, noiseLowCut)
				}
			}
		})
	}
}

func TestConvolveMatchesDirect(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, sizes := range [][2]int{{1, 1}, {7, 3}, {100, 37}, {513, 512}} {
		x, h := make([]float32, sizes[0]), make([]float32, sizes[1])
		for i := range x {
			x[i] = float32(r.NormFloat64())
		}
		for i := range h {
			h[i] = float32(r.NormFloat64())
		}
		got := Convolve(x, h)
		if len(got) != len(x)+len(h)-1 {
			t.Fatalf("%v: length %d", sizes, len(got))
		}
		for n := range got {
			var want float64
			for k := range h {
				if i := n - k; i >= 0 && i < len(x) {
					want += float64(h[k]) * float64(x[i])
				}
			}
			if math.Abs(float64(got[n])-want) > 1e-4 {
				t.Fatalf("%v: y[%d] = %g, want %g", sizes, n, got[n], want)
			}
		}
	}
	if Convolve(nil, []float32{1}) != nil {
		t.Error("Convolve of nothing is not nil")
	}
}

func TestImpulseResponse(t *testing.T) {
	tests := []struct{ rt60, drr float64 }{{0.2, 0}, {0.5, 6}, {0.8, 15}}
	for _, tc := range tests {
		h := ImpulseResponse(tc.rt60, tc.drr, SampleRate, rand.New(rand.NewPCG(7, 8)))
		if want := int(math.Ceil(tc.rt60 * SampleRate)); len(h) != want {
			t.Errorf("RT60 %g: %d taps, want %d", tc.rt60, len(h), want)
		}
		var tail float64
		for _, v := range h[1:] {
			tail += float64(v) * float64(v)
		}
		if got := db(float64(h[0]) * float64(h[0]) / tail); math.Abs(got-tc.drr) > 0.01 {
			t.Errorf("RT60 %g: DRR %.3f dB, want %g", tc.rt60, got, tc.drr)
		}
		// Schroeder backward integration of the tail; the slope between
		// −5 and −25 dB, extrapolated to −60 dB, is the RT60 (ISO 3382's T20).
		edc := make([]float64, len(h))
		var s float64
		for i := len(h) - 1; i >= 1; i-- {
			s += float64(h[i]) * float64(h[i])
			edc[i] = s
		}
		var t5, t25 int
		for i := 1; i < len(h); i++ {
			level := db(edc[i] / edc[1])
			if t5 == 0 && level <= -5 {
				t5 = i
			}
			if level <= -25 {
				t25 = i
				break
			}
		}
		got := 3 * float64(t25-t5) / SampleRate
		if math.Abs(got-tc.rt60)/tc.rt60 > 0.1 {
			t.Errorf("RT60 %g: measured T20 %.3f s", tc.rt60, got)
		}
	}
}

func TestTelephone(t *testing.T) {
	const n = SampleRate
	mid := func(x []float32) []float32 { return x[n/4 : 3*n/4] } // away from the filter's edges
	tests := []struct {
		f      float64
		minDB  float64 // gain bounds
		maxDB  float64
		passes bool
	}{
		{300, -0.1, 0.1, true},
		{1000, -0.1, 0.1, true},
		{3000, -0.1, 0.1, true},
		{4500, math.Inf(-1), -60, false},
		{6000, math.Inf(-1), -60, false},
	}
	for _, tc := range tests {
		x := tone(n, tc.f, 0.5, SampleRate)
		y, err := Telephone(x, SampleRate)
		if err != nil {
			t.Fatal(err)
		}
		if len(y) != len(x) {
			t.Fatalf("%g Hz: %d samples out of %d", tc.f, len(y), len(x))
		}
		gain := db(meanPower(mid(y)) / meanPower(mid(x)))
		t.Logf("%g Hz: %.3f dB", tc.f, gain)
		if gain < tc.minDB || gain > tc.maxDB {
			t.Errorf("%g Hz: gain %.2f dB, want within [%g, %g]", tc.f, gain, tc.minDB, tc.maxDB)
		}
	}
}

func TestNormalizePeak(t *testing.T) {
	x := []float32{0.1, -0.4, 0.2}
	if err := Normalize(x, -6); err != nil {
		t.Fatal(err)
	}
	if got := 20 * math.Log10(float64(-x[1])); math.Abs(got+6) > 1e-5 || math.Abs(float64(x[0]/x[1])+0.25) > 1e-6 {
		t.Errorf("Normalize to −6 dBFS gave %v (peak %.4f dB)", x, got)
	}
	if err := Normalize(make([]float32, 4), -1); !errors.Is(err, ErrSilent) {
		t.Errorf("Normalize(silence) = %v, want ErrSilent", err)
	}
}
