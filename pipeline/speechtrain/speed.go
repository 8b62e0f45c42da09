package speechtrain

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/audio"
)

// Speed factors outside [MinSpeed, MaxSpeed] are refused: beyond them
// speech stops sounding like speech.
const (
	MinSpeed = 0.5
	MaxSpeed = 2.0
)

// speedUp returns sig played factor times as fast, tempo and pitch
// together like sox's "speed" effect: its samples are read as if
// recorded at factor·rate and resampled back to rate, so the result
// lasts 1/factor as long and every frequency is multiplied by factor.
// Speed perturbation with factors 0.9 and 1.1 is the augmentation of Ko
// et al. (2015), "Audio augmentation for speech recognition".
func speedUp(sig *audio.Signal, factor float64) (*audio.Signal, error) {
	if !(factor >= MinSpeed && factor <= MaxSpeed) {
		return nil, fmt.Errorf("speed factor %g outside [%g, %g]", factor, MinSpeed, MaxSpeed)
	}
	if factor == 1 {
		return sig, nil
	}
	as := &audio.Signal{Rate: int(math.Round(float64(sig.Rate) * factor)), Channels: sig.Channels, Samples: sig.Samples}
	return audio.Resample(as, sig.Rate)
}
