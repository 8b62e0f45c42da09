package synth

import (
	"fmt"
	"math/rand/v2"

	"github.com/attend-go/attend/audio"
)

// A Plan is every random choice for one clip. It is a pure function of the
// seed, the sentence index and the voices (NewPlan), so clips come out the
// same whatever the number of workers or the order they finish in.
type Plan struct {
	Index     int
	Voice     Voice
	Tempo     float64          // speaking-rate factor given to the engine, after pitch compensation (see Pitch)
	Pitch     float64          // frequency-scale factor applied by resampling
	RT60      float64          // reverberation time in seconds; 0 for a dry clip
	DRR       float64          // direct-to-reverberant ratio in dB (when RT60 > 0)
	Noise     audio.NoiseColor // audio.NoNoise for a clean clip
	SNR       float64          // signal-to-noise ratio in dB (when Noise != audio.NoNoise)
	Telephone bool             // telephone line: 4 kHz band, G.711 µ-law
	Peak      float64          // peak level in dBFS
	Seed      uint64           // seeds the noise and impulse-response samples
}

// String describes the plan in one line, for logs.
func (p Plan) String() string {
	s := fmt.Sprintf("#%d %s tempo %.2f pitch %.2f", p.Index, p.Voice, p.Tempo, p.Pitch)
	if p.RT60 > 0 {
		s += fmt.Sprintf(" reverb %.2fs/%.1fdB", p.RT60, p.DRR)
	}
	if p.Noise != audio.NoNoise {
		s += fmt.Sprintf(" %s noise %.1fdB", p.Noise, p.SNR)
	}
	if p.Telephone {
		s += " telephone"
	}
	return s + fmt.Sprintf(" peak %.1fdBFS", p.Peak)
}

// NewPlan draws the choices for sentence index from a PCG generator seeded
// with (o.Seed, index). The engine is drawn uniformly among the engines
// with voices, then the voice uniformly among that engine's: drawing over
// all voices at once would give espeak-ng, with its hundreds of variants,
// nearly every clip. Every value is drawn whether used or not, so changing
// a fraction never changes the other choices. voices must hold at least
// one engine with a voice (a programming error otherwise: it panics).
//
// Tempo in the plan is what the engine is asked for: the net speaking rate
// (drawn from o.Tempo) divided by Pitch, because resampling by Pitch
// speeds speech up by that factor too.
func NewPlan(index int, voices []Found, o *Options) Plan {
	d := o.withDefaults()
	engines := usable(voices)
	if len(engines) == 0 {
		panic("synth: NewPlan without voices")
	}
	r := rand.New(rand.NewPCG(d.Seed, uint64(index)))
	uniform := func(rg Range) float64 { return rg.Min + (rg.Max-rg.Min)*r.Float64() }

	e := engines[r.IntN(len(engines))]
	p := Plan{Index: index, Voice: Voice{e.Engine.Name(), e.Voices[r.IntN(len(e.Voices))]}}
	tempo := uniform(d.Tempo)
	p.Pitch = uniform(d.Pitch)
	p.Tempo = tempo / p.Pitch

	reverb, rt60, drr := r.Float64(), uniform(d.RT60), uniform(d.DRR)
	if reverb < d.Reverb {
		p.RT60, p.DRR = rt60, drr
	}
	noise, color, snr := r.Float64(), audio.NoiseColor(1+r.IntN(3)), uniform(d.SNR)
	if noise < d.Noise {
		p.Noise, p.SNR = color, snr
	}
	p.Telephone = r.Float64() < d.Telephone
	p.Peak = uniform(d.Peak)
	p.Seed = r.Uint64()
	return p
}
