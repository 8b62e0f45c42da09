package speechtrain

import (
	"fmt"
	"math/rand/v2"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Augmented copies (LoadOptions.Augment) give the recognizer more
// speakers, rooms and noise than the real recordings hold. Copy c of
// utterance i draws every choice from its own PCG stream seeded with
// (Seed ⊕ augmentStream, i<<8 | c), so it is the same whatever the number
// of workers and the order they finish in. Each copy, in this order:
//
//  1. VTLP: the filterbank's frequency axis is warped by α drawn
//     uniformly from LoadOptions.Warp (audio.FbankOptions.Warp; Jaitly &
//     Hinton 2013): formants move as with a shorter (α > 1) or longer
//     (α < 1) vocal tract, so adults sound a little more like children
//     and the reverse.
//  2. Reverberation [reverbFraction of copies]: convolution with a
//     synthetic room response of RT60 0.2–0.8 s and direct-to-reverberant
//     ratio 0–15 dB (audio.ImpulseResponse, the ranges of asr synth), cut
//     to the original length.
//  3. Additive noise at 5–30 dB SNR (mean powers over the whole clip):
//     babble [babbleFraction of copies] — 3 to 6 other real utterances of
//     the load, each at unit power and started at a random offset
//     (looping), summed — or white, pink or brown noise, read from a
//     random offset of the 30 s of each the pool holds (noisePool);
//     with LoadOptions.NoiseDirs, half of the copies without babble get
//     one of their non-speech sounds (music, bells) instead.
//  4. Telephone line [LoadOptions.Telephone of copies, as for originals]:
//     resampled through 8 kHz, companded by G.711 µ-law or A-law there.
//
// Noise comes after reverberation because background noise reaches the
// microphone diffusely; the telephone after both, as in pipeline/synth.
const (
	augmentStream  = 0xa5a5_0000_0000_0000 // keeps copies' streams apart from the telephone draws
	reverbFraction = 0.3
	babbleFraction = 0.5
	minSNR, maxSNR = 5.0, 30.0
	// babblePoolSize real utterances are decoded once and kept for babble:
	// a few MB of samples, a variety of voices, and sources that never
	// depend on which worker loaded what.
	babblePoolSize = 48
	minTalkers     = 3
	maxTalkers     = 6
)

// Ranges of the room and of the warp.
var (
	rt60Range = [2]float64{0.2, 0.8}
	drrRange  = [2]float64{0, 15}
	// DefaultWarp is the VTLP range of augmented copies when none is
	// given: 0.85–1.2, about the span from adult male to child vocal
	// tracts around an average speaker.
	DefaultWarp = [2]float64{0.85, 1.2}
)

// perturbation is every random choice for one augmented copy.
type perturbation struct {
	warp      float64
	rt60, drr float64          // rt60 0: dry
	talkers   []babbleTalker   // babble sources, or none
	noise     audio.NoiseColor // coloured noise when there is neither babble nor a sound
	sound     int              // 1 + the pool's non-speech sound mixed in, or 0
	offset    int              // where in the pool's coloured noise or sound it starts
	snr       float64
	telephone bool
	law       audio.G711Law // of the telephone line
	seed      uint64        // of the room response
}

// babbleTalker is one voice of babble: pool source, start sample.
type babbleTalker struct{ source, offset int }

// drawPerturbation draws copy c of utterance index (its position in the
// load); babble never includes the utterance itself.
func drawPerturbation(o *LoadOptions, pool *noisePool, index, c int) perturbation {
	r := rand.New(rand.NewPCG(o.Seed^augmentStream, uint64(index)<<8|uint64(c)))
	warp := o.Warp
	if warp == [2]float64{} {
		warp = DefaultWarp
	}
	p := perturbation{warp: uniform(r, warp), seed: r.Uint64()}
	p.offset = r.IntN(coloredSeconds * speechmodel.SampleRate) // into the pool's coloured noise
	if r.Float64() < reverbFraction {
		p.rt60, p.drr = uniform(r, rt60Range), uniform(r, drrRange)
	}
	p.snr = uniform(r, [2]float64{minSNR, maxSNR})
	if others := pool.others(index); r.Float64() < babbleFraction && len(others) >= minTalkers {
		k := minTalkers + r.IntN(maxTalkers-minTalkers+1)
		for _, j := range r.Perm(len(others))[:min(k, len(others))] {
			src := others[j]
			p.talkers = append(p.talkers, babbleTalker{src, r.IntN(len(pool.samples[src]))})
		}
	} else if n := pool.soundCount(); n > 0 && r.IntN(2) == 0 {
		p.sound = 1 + r.IntN(n) // drawn only with sounds: runs without keep their draws
		p.offset = r.IntN(len(pool.sounds[p.sound-1]))
	} else {
		p.noise = audio.NoiseColor(1 + r.IntN(3)) // white, pink or brown
	}
	if p.telephone = r.Float64() < o.Telephone; p.telephone {
		p.law = drawLaw(r)
	}
	return p
}

// uniform draws from [lo, hi].
func uniform(r *rand.Rand, lohi [2]float64) float64 {
	return lohi[0] + (lohi[1]-lohi[0])*r.Float64()
}

// apply returns the perturbed 16 kHz samples of sig (not changing it),
// with noise from pool, the one it was drawn with; the warp is the front
// end's business.
func (p perturbation) apply(sig *audio.Signal, pool *noisePool) (*audio.Signal, error) {
	r := rand.New(rand.NewPCG(p.seed, 0))
	x := append([]float32(nil), sig.Samples...)
	if p.rt60 > 0 {
		x = audio.Convolve(x, audio.ImpulseResponse(p.rt60, p.drr, sig.Rate, r))[:len(sig.Samples)]
	}
	var noise []float32
	switch {
	case len(p.talkers) > 0:
		noise = pool.babble(p.talkers, len(x))
	case p.sound > 0:
		noise = pool.sound(p.sound-1, p.offset, len(x))
	default:
		noise = pool.noise(p.noise, p.offset, len(x))
	}
	if err := audio.MixNoise(x, noise, p.snr); err != nil {
		return nil, err
	}
	out := &audio.Signal{Rate: sig.Rate, Channels: 1, Samples: x}
	if p.telephone {
		return telephone(out, p.law)
	}
	return out, nil
}

// String describes the perturbation for logs and test failures.
func (p perturbation) String() string {
	s := fmt.Sprintf("warp %.3f", p.warp)
	if p.rt60 > 0 {
		s += fmt.Sprintf(", reverb %.2f s/%.1f dB", p.rt60, p.drr)
	}
	switch {
	case len(p.talkers) > 0:
		s += fmt.Sprintf(", %d-talker babble", len(p.talkers))
	case p.sound > 0:
		s += fmt.Sprintf(", sound %d", p.sound-1)
	default:
		s += fmt.Sprintf(", %s noise", p.noise)
	}
	s += fmt.Sprintf(" at %.1f dB", p.snr)
	if p.telephone {
		s += ", telephone " + p.law.String()
	}
	return s
}
