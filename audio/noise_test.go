package audio

import (
	"errors"
	"fmt"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"testing"

	"github.com/mjibson/go-dsp/fft"
)

// noiseRate is the sample rate of the noise and reverberation tests.
const noiseRate = 16000

func db(p float64) float64 { return 10 * math.Log10(p) }

func TestAddNoiseSNR(t *testing.T) {
	speech := tone(noiseRate, noiseRate, 300, 0.5)
	for i := range speech {
		speech[i] += float32(0.2 * math.Sin(float64(i)*0.37)) // a second partial
	}
	for _, c := range []NoiseColor{WhiteNoise, PinkNoise, BrownNoise} {
		for _, snr := range []float64{-5, 10, 25, 40} {
			t.Run(fmt.Sprintf("%s/%gdB", c, snr), func(t *testing.T) {
				x := append([]float32(nil), speech...)
				if err := AddNoise(x, c, snr, noiseRate, rand.New(rand.NewPCG(1, 2))); err != nil {
					t.Fatal(err)
				}
				noise := make([]float32, len(x))
				for i := range x {
					noise[i] = x[i] - speech[i]
				}
				got := db(MeanPower(speech) / MeanPower(noise))
				if math.Abs(got-snr) > 0.1 {
					t.Errorf("%s noise at %g dB: measured %.3f dB", c, snr, got)
				}
			})
		}
	}
	if err := AddNoise(make([]float32, 100), WhiteNoise, 10, noiseRate, rand.New(rand.NewPCG(1, 2))); !errors.Is(err, ErrSilent) {
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
		{WhiteNoise, 0},
		{PinkNoise, -3.01},
		{BrownNoise, -6.02},
	}
	x := make([]float32, 1<<16)
	for _, tc := range tests {
		t.Run(tc.color.String(), func(t *testing.T) {
			MakeNoise(x, tc.color, noiseRate, rand.New(rand.NewPCG(3, 4)))
			if p := MeanPower(x); math.Abs(p-1) > 1e-4 {
				t.Errorf("mean power %g, want 1", p)
			}
			// Power density in octaves 125–250 Hz … 2–4 kHz.
			var prev float64
			for lo := 125.0; lo < 4000; lo *= 2 {
				dens := db(bandPower(x, noiseRate, lo, 2*lo) / lo)
				if lo > 125 {
					if d := dens - prev; math.Abs(d-tc.slope) > 0.5 {
						t.Errorf("octave %g–%g Hz: %.2f dB from the one below, want %.2f", lo, 2*lo, d, tc.slope)
					}
				}
				prev = dens
			}
			if tc.color != WhiteNoise {
				if p := bandPower(x, noiseRate, 1, NoiseLowCut) / bandPower(x, noiseRate, 1, noiseRate); p > 1e-12 {
					t.Errorf("fraction %g of the power below %g Hz, want none", p, NoiseLowCut)
				}
			}
		})
	}
}
