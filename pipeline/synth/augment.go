package synth

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/attend-go/attend/audio"
)

// SampleRate is the rate of every clip written: 16 kHz, what the speech
// model's front end reads.
const SampleRate = 16000

// Augment turns an engine's output into a training clip following p:
// downmix to mono; scale frequencies by p.Pitch (the signal is read as if
// sampled at rate·Pitch) while resampling to SampleRate; convolve with a
// room response; add noise; pass it through a telephone line (4 kHz band,
// G.711 µ-law: audio.Telephone); scale to the peak level. It returns mono SampleRate audio, or an error wrapping
// audio.ErrSilent when the engine produced silence.
func Augment(sig *audio.Signal, p Plan) ([]float32, error) {
	mono, err := audio.Downmix(sig)
	if err != nil {
		return nil, fmt.Errorf("synth: %w", err)
	}
	if audio.MeanPower(mono.Samples) == 0 {
		return nil, audio.ErrSilent
	}
	shifted := &audio.Signal{Rate: int(math.Round(float64(mono.Rate) * p.Pitch)), Channels: 1, Samples: mono.Samples}
	out, err := audio.Resample(shifted, SampleRate)
	if err != nil {
		return nil, fmt.Errorf("synth: pitch %.3f: %w", p.Pitch, err)
	}
	x := out.Samples
	if &x[0] == &mono.Samples[0] {
		x = append([]float32(nil), x...) // never scale the caller's samples
	}
	r := rand.New(rand.NewPCG(p.Seed, 0))
	if p.RT60 > 0 {
		x = audio.Convolve(x, audio.ImpulseResponse(p.RT60, p.DRR, SampleRate, r))
	}
	if p.Noise != audio.NoNoise {
		if err := audio.AddNoise(x, p.Noise, p.SNR, SampleRate, r); err != nil {
			return nil, err
		}
	}
	if p.Telephone {
		if x, err = audio.Telephone(x, SampleRate, audio.MuLaw); err != nil {
			return nil, fmt.Errorf("synth: %w", err)
		}
	}
	if err := Normalize(x, p.Peak); err != nil {
		return nil, err
	}
	return x, nil
}

// Normalize scales x in place so that its largest magnitude is peak dBFS.
func Normalize(x []float32, peak float64) error {
	var m float32
	for _, v := range x {
		m = max(m, v, -v)
	}
	if m == 0 {
		return audio.ErrSilent
	}
	g := float32(math.Pow(10, peak/20)) / m
	for i := range x {
		x[i] *= g
	}
	return nil
}
