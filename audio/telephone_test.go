package audio

import (
	"math"
	"testing"
)

// A telephone line passes 300–3000 Hz at unit gain, with the codec's
// quantization noise about 38 dB down, and removes what lies above 4 kHz.
func TestTelephone(t *testing.T) {
	const rate, n = 16000, 16000
	mid := func(x []float32) []float32 { return x[n/4 : 3*n/4] } // away from the filter's edges
	db := func(p float64) float64 { return 10 * math.Log10(p) }
	tests := []struct {
		f            float64
		minDB, maxDB float64 // gain bounds
		passes       bool
	}{
		{300, -0.1, 0.1, true},
		{1000, -0.1, 0.1, true},
		{3000, -0.1, 0.1, true},
		{4500, math.Inf(-1), -60, false},
		{6000, math.Inf(-1), -60, false},
	}
	for _, law := range []G711Law{MuLaw, ALaw} {
		for _, tc := range tests {
			x := tone(rate, n, tc.f, 0.5)
			orig := append([]float32(nil), x...)
			y, err := Telephone(x, rate, law)
			if err != nil {
				t.Fatal(err)
			}
			if len(y) != len(x) {
				t.Fatalf("%v, %g Hz: %d samples out of %d", law, tc.f, len(y), len(x))
			}
			for i := range x {
				if x[i] != orig[i] {
					t.Fatalf("%v, %g Hz: Telephone changed its input", law, tc.f)
				}
			}
			gain := db(MeanPower(mid(y)) / MeanPower(mid(x)))
			if gain < tc.minDB || gain > tc.maxDB {
				t.Errorf("%v, %g Hz: gain %.2f dB, want within [%g, %g]", law, tc.f, gain, tc.minDB, tc.maxDB)
			}
			if !tc.passes {
				continue
			}
			// The codec's noise: the line's output against the same band
			// limit without the codec.
			low, _ := Resample(&Signal{Rate: rate, Channels: 1, Samples: x}, TelephoneRate)
			clean, _ := Resample(low, rate)
			var e float64
			for i := n / 4; i < 3*n/4; i++ {
				d := float64(y[i] - clean.Samples[i])
				e += d * d
			}
			if sqnr := db(MeanPower(mid(y)) * float64(n/2) / e); sqnr < 33 || sqnr > 42 {
				t.Errorf("%v, %g Hz: codec noise %.1f dB below the tone, want 33–42", law, tc.f, sqnr)
			}
		}
	}
	if y, err := Telephone(nil, rate, MuLaw); err != nil || len(y) != 0 {
		t.Errorf("Telephone(nil) = %v, %v; want no samples, no error", y, err)
	}
	if _, err := Telephone(tone(rate, 100, 440, 0.5), rate, G711Law(9)); err == nil {
		t.Error("Telephone with law 9: no error")
	}
}
