package synth

import (
	"errors"
	"math"
	"testing"

	"github.com/attend-go/attend/audio"
)

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
