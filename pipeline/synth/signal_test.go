package synth

import (
	"errors"
	"math"
	"testing"

	"github.com/attend-go/attend/audio"
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
		gain := db(audio.MeanPower(mid(y)) / audio.MeanPower(mid(x)))
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
	if err := Normalize(make([]float32, 4), -1); !errors.Is(err, audio.ErrSilent) {
		t.Errorf("Normalize(silence) = %v, want ErrSilent", err)
	}
}
