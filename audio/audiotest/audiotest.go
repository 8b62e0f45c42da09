// Package audiotest makes test signals by code: noises of three colours,
// tones, chords and music-like note sequences, and mixing at a given
// signal-to-noise ratio. Every generator draws from the *rand.Rand it is
// given, so fixtures are reproducible and nothing large is committed.
//
// The signals are what a voice activity detector must not take for speech
// (see audio.VAD) and what speech is mixed with to test it under noise.
package audiotest

import (
	"math"
	"math/rand/v2"
)

// White returns n samples of Gaussian white noise of RMS level rms.
func White(rng *rand.Rand, n int, rms float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(rms * rng.NormFloat64())
	}
	return clip(x)
}

// Pink returns n samples of pink (1/f) noise of RMS level rms: white
// noise through Paul Kellet's economy filter (−3 dB per octave within
// 0.5 dB from 10 Hz to Nyquist at 44.1 kHz, close enough at 16 kHz).
func Pink(rng *rand.Rand, n int, rms float64) []float32 {
	x := make([]float64, n)
	var b0, b1, b2 float64
	for i := range x {
		w := rng.NormFloat64()
		b0 = 0.99765*b0 + w*0.0990460
		b1 = 0.96300*b1 + w*0.2965164
		b2 = 0.57000*b2 + w*1.0526913
		x[i] = b0 + b1 + b2 + w*0.1848
	}
	return scale(x, rms)
}

// Brown returns n samples of brown (1/f²) noise of RMS level rms: white
// noise integrated by a slightly leaky integrator (pole 0.998, so the
// signal stays centred).
func Brown(rng *rand.Rand, n int, rms float64) []float32 {
	x := make([]float64, n)
	var s float64
	for i := range x {
		s = 0.998*s + rng.NormFloat64()
		x[i] = s
	}
	return scale(x, rms)
}

// Tone returns n samples of a sine of frequency hz at rate, of peak
// amplitude amp.
func Tone(n, rate int, hz, amp float64) []float32 {
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(amp * math.Sin(2*math.Pi*hz*float64(i)/float64(rate)))
	}
	return x
}

// Chord returns n samples of notes (frequencies in Hz) held together,
// each with harmonics of amplitude 1/k, scaled to peak amplitude amp.
func Chord(n, rate int, amp float64, notes ...float64) []float32 {
	x := make([]float64, n)
	for _, f := range notes {
		addNote(x, rate, f, 6, 0)
	}
	return peak(x, amp)
}

// Music returns n samples of a music-like sequence: random notes of a
// major scale (MIDI 48–84), 0.12–0.6 s each, sometimes two at a time,
// with harmonic timbres and attack-decay envelopes, scaled to peak amp.
func Music(rng *rand.Rand, n, rate int, amp float64) []float32 {
	x := make([]float64, n)
	scaleSteps := []int{0, 2, 4, 5, 7, 9, 11}
	for at := 0; at < n; {
		dur := int((0.12 + 0.48*rng.Float64()) * float64(rate))
		end := min(n, at+dur)
		voices := 1 + rng.IntN(2)
		for range voices {
			midi := 48 + 12*rng.IntN(3) + scaleSteps[rng.IntN(len(scaleSteps))]
			f := 440 * math.Pow(2, float64(midi-69)/12)
			note := make([]float64, end-at)
			addNote(note, rate, f, 1+rng.IntN(8), 3+6*rng.Float64())
			for i, v := range note {
				x[at+i] += v
			}
		}
		at = end
	}
	return peak(x, amp)
}

// addNote adds a note of frequency f with harmonics 1…k of amplitude 1/h
// to x; with decay > 0 it has a 10 ms attack and decays as e^{−decay·t}.
func addNote(x []float64, rate int, f float64, k int, decay float64) {
	for i := range x {
		t := float64(i) / float64(rate)
		env := 1.0
		if decay > 0 {
			env = min(1, t/0.01) * math.Exp(-decay*t)
		}
		var v float64
		for h := 1; h <= k && float64(h)*f < float64(rate)/2; h++ {
			v += math.Sin(2*math.Pi*float64(h)*f*t) / float64(h)
		}
		x[i] += env * v
	}
}

// RMS returns the root mean square of x.
func RMS(x []float32) float64 {
	var s float64
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	if len(x) == 0 {
		return 0
	}
	return math.Sqrt(s / float64(len(x)))
}

// MixSNR returns signal plus noise scaled so that the ratio of their mean
// powers is snrDB; noise is repeated or cut to the signal's length.
func MixSNR(signal, noise []float32, snrDB float64) []float32 {
	out := make([]float32, len(signal))
	if len(noise) == 0 {
		copy(out, signal)
		return out
	}
	var ns float64
	for i := range signal {
		v := float64(noise[i%len(noise)])
		ns += v * v
	}
	ns = math.Sqrt(ns / float64(len(signal)))
	g := 0.0
	if ns > 0 {
		g = RMS(signal) / ns * math.Pow(10, -snrDB/20)
	}
	for i, v := range signal {
		out[i] = v + float32(g*float64(noise[i%len(noise)]))
	}
	return clip(out)
}

func scale(x []float64, rms float64) []float32 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	g := 0.0
	if s > 0 {
		g = rms / math.Sqrt(s/float64(len(x)))
	}
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(g * v)
	}
	return clip(out)
}

func peak(x []float64, amp float64) []float32 {
	var p float64
	for _, v := range x {
		p = max(p, math.Abs(v))
	}
	g := 0.0
	if p > 0 {
		g = amp / p
	}
	out := make([]float32, len(x))
	for i, v := range x {
		out[i] = float32(g * v)
	}
	return out
}

func clip(x []float32) []float32 {
	for i, v := range x {
		x[i] = max(-1, min(1, v))
	}
	return x
}
