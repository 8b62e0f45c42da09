package synth

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
)

// toneEngine is a stand-in TTS engine for tests that need none installed:
// voice "low" hums at 200 Hz, "high" at 400 Hz, for 50 ms per character
// of text divided by tempo, at 22,050 Hz like espeak-ng; voice "bad"
// fails.
type toneEngine struct {
	name   string
	absent bool
}

func (e toneEngine) Name() string { return e.name }

func (e toneEngine) Voices(context.Context) ([]string, error) {
	if e.absent {
		return nil, fmt.Errorf("synth: %s: %w", e.name, ErrNotInstalled)
	}
	return []string{"low", "high", "bad"}, nil
}

func (e toneEngine) Render(_ context.Context, voice, text string, tempo float64, path string) error {
	f0 := map[string]float64{"low": 200, "high": 400}[voice]
	if f0 == 0 {
		return errors.New("tone: bad voice")
	}
	const rate = 22050
	x := make([]float32, int(0.05*float64(len(text))/tempo*rate))
	for i := range x {
		t := float64(i) / rate
		x[i] = float32(0.3*math.Sin(2*math.Pi*f0*t) + 0.1*math.Sin(2*math.Pi*3*f0*t))
	}
	return writeFileAtomic(path, func(w io.Writer) error { return WriteWAV(w, x, rate) })
}

// mustRegexp compiles s, or returns nil for "".
func mustRegexp(s string) *regexp.Regexp {
	if s == "" {
		return nil
	}
	return regexp.MustCompile(s)
}
