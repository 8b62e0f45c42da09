package synth

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A Range is a closed interval [Min, Max] that values are drawn from
// uniformly. The zero Range means "the default range" wherever one is
// documented; Min == Max fixes the value.
type Range struct {
	Min, Max float64
}

// String formats the range as "min,max" (the flag syntax).
func (r Range) String() string {
	return strconv.FormatFloat(r.Min, 'g', -1, 64) + "," + strconv.FormatFloat(r.Max, 'g', -1, 64)
}

// Set parses "min,max" or a single value, so a Range is a flag.Value.
func (r *Range) Set(s string) error {
	lo, hi, pair := strings.Cut(s, ",")
	a, err := strconv.ParseFloat(strings.TrimSpace(lo), 64)
	if err != nil {
		return fmt.Errorf("synth: range %q: want MIN,MAX or one number", s)
	}
	b := a
	if pair {
		if b, err = strconv.ParseFloat(strings.TrimSpace(hi), 64); err != nil {
			return fmt.Errorf("synth: range %q: want MIN,MAX or one number", s)
		}
	}
	if math.IsNaN(a) || math.IsNaN(b) || math.IsInf(a, 0) || math.IsInf(b, 0) || a > b {
		return fmt.Errorf("synth: range %q: want finite MIN ≤ MAX", s)
	}
	r.Min, r.Max = a, b
	return nil
}

// or returns r, or def when r is the zero Range.
func (r Range) or(def Range) Range {
	if r == (Range{}) {
		return def
	}
	return r
}

// within checks that r lies inside [lo, hi] and is ordered.
func (r Range) within(name string, lo, hi float64) error {
	if !(r.Min <= r.Max) || r.Min < lo || r.Max > hi {
		return fmt.Errorf("synth: %s range %v: must satisfy %g ≤ min ≤ max ≤ %g", name, r, lo, hi)
	}
	return nil
}

// Options control the augmentation chain. The zero value renders clean
// speech (no reverberation, noise or band-limiting) at the default tempo,
// pitch and peak ranges; the command line's defaults are richer.
type Options struct {
	// Seed makes every random choice: the same Seed, sentences and voices
	// give the same clips.
	Seed uint64

	// Tempo is the speaking-rate factor relative to each voice's own
	// (default 0.85–1.25).
	Tempo Range
	// Pitch is the frequency-scale factor applied by resampling, which
	// moves pitch and formants together like a shorter or longer vocal
	// tract (default 0.9–1.1, about ±1.7 semitones).
	Pitch Range

	// Reverb is the fraction of clips convolved with a synthetic room
	// impulse response (0 means none).
	Reverb float64
	// RT60 is the reverberation time in seconds (default 0.2–0.8).
	RT60 Range
	// DRR is the direct-to-reverberant energy ratio in dB (default 0–15).
	DRR Range

	// Noise is the fraction of clips with additive noise (0 means none);
	// white, pink and brown are equally likely.
	Noise float64
	// SNR is the signal-to-noise ratio of added noise in dB (default 10–40).
	SNR Range

	// Telephone is the fraction of clips passed through a telephone line:
	// band-limited to 4 kHz by resampling to 8 kHz and back, G.711 µ-law
	// in between (0 means none).
	Telephone float64

	// Peak is the level of the loudest sample in dBFS (default −6 to −1).
	Peak Range
}

// Default ranges; the package documentation explains each choice.
var (
	DefaultTempo = Range{0.85, 1.25}
	DefaultPitch = Range{0.9, 1.1}
	DefaultRT60  = Range{0.2, 0.8}
	DefaultDRR   = Range{0, 15}
	DefaultSNR   = Range{10, 40}
	DefaultPeak  = Range{-6, -1}
)

// withDefaults returns o with zero ranges replaced by the defaults.
func (o Options) withDefaults() Options {
	o.Tempo = o.Tempo.or(DefaultTempo)
	o.Pitch = o.Pitch.or(DefaultPitch)
	o.RT60 = o.RT60.or(DefaultRT60)
	o.DRR = o.DRR.or(DefaultDRR)
	o.SNR = o.SNR.or(DefaultSNR)
	o.Peak = o.Peak.or(DefaultPeak)
	return o
}

// Validate reports the first option outside its allowed values.
func (o *Options) Validate() error {
	d := o.withDefaults()
	for _, f := range []struct {
		name string
		v    float64
	}{{"reverb", d.Reverb}, {"noise", d.Noise}, {"telephone", d.Telephone}} {
		if !(f.v >= 0 && f.v <= 1) {
			return fmt.Errorf("synth: %s fraction %g: must be in [0, 1]", f.name, f.v)
		}
	}
	checks := []struct {
		name   string
		r      Range
		lo, hi float64
	}{
		{"tempo", d.Tempo, 0.3, 3},
		{"pitch", d.Pitch, 0.5, 2},
		{"rt60", d.RT60, 0.01, 5},
		{"drr", d.DRR, -20, 60},
		{"snr", d.SNR, -20, 100},
		{"peak", d.Peak, -60, 0},
	}
	for _, c := range checks {
		if err := c.r.within(c.name, c.lo, c.hi); err != nil {
			return err
		}
	}
	return nil
}
