package synth

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
)

// ErrNotInstalled means a TTS engine's program is not on the PATH.
var ErrNotInstalled = errors.New("synth: engine not installed")

// ErrNoEngine means no TTS engine with a usable voice was found.
var ErrNoEngine = errors.New("synth: no TTS engine installed")

// An Engine is a text-to-speech program.
//
// Implementations run an external program per call, so they are safe for
// concurrent use; Render writes only the file it is given.
type Engine interface {
	// Name identifies the engine in speaker names and on the command
	// line ("espeak-ng").
	Name() string
	// Voices lists the voices the installed engine can render, probing it
	// where its listing cannot be trusted. It returns an error wrapping
	// ErrNotInstalled when the program is absent.
	Voices(ctx context.Context) ([]string, error)
	// Render speaks text with voice at tempo (1 is the voice's own
	// speaking rate, 1.2 is 20% faster) into a WAV file at path.
	Render(ctx context.Context, voice, text string, tempo float64, path string) error
}

// Engines returns the engines this package knows, in a fixed order:
// espeak-ng, flite, festival.
func Engines() []Engine {
	return []Engine{Espeak{}, Flite{}, Festival{}}
}

// A Voice is one voice of one engine: the unit a speaker split holds out.
type Voice struct {
	Engine string
	Name   string
}

// String returns "engine/name", the manifest's speaker column.
func (v Voice) String() string { return v.Engine + "/" + v.Name }

// Found is an engine together with the voices found for it.
type Found struct {
	Engine Engine
	Voices []string
	Err    error // why the engine is unusable (wraps ErrNotInstalled when absent); nil when it has voices
}

// Discover asks each engine for its voices. Voices whose "engine/name"
// does not match the filter are dropped (a nil filter keeps all). Every
// engine gets one entry, usable or not, so callers can report each.
func Discover(ctx context.Context, engines []Engine, filter *regexp.Regexp) []Found {
	out := make([]Found, 0, len(engines))
	for _, e := range engines {
		voices, err := e.Voices(ctx)
		if err == nil && filter != nil {
			voices = slices.DeleteFunc(voices, func(v string) bool {
				return !filter.MatchString(Voice{e.Name(), v}.String())
			})
			if len(voices) == 0 {
				err = fmt.Errorf("synth: %s: no voice matches %q", e.Name(), filter)
			}
		}
		if err == nil && len(voices) == 0 {
			err = fmt.Errorf("synth: %s: no voices found", e.Name())
		}
		if err != nil {
			voices = nil
		}
		out = append(out, Found{Engine: e, Voices: voices, Err: err})
	}
	return out
}

// usable returns the found engines that have voices.
func usable(found []Found) []Found {
	var out []Found
	for _, f := range found {
		if f.Err == nil && len(f.Voices) > 0 {
			out = append(out, f)
		}
	}
	return out
}

// SelectEngines returns the engines of Engines() named in names, in the
// order given; an empty list means all of them.
func SelectEngines(names []string) ([]Engine, error) {
	all := Engines()
	if len(names) == 0 {
		return all, nil
	}
	var out []Engine
	for _, n := range names {
		i := slices.IndexFunc(all, func(e Engine) bool { return e.Name() == n })
		if i < 0 {
			known := make([]string, len(all))
			for j, e := range all {
				known[j] = e.Name()
			}
			return nil, fmt.Errorf("synth: unknown engine %q (known: %v)", n, known)
		}
		if !slices.ContainsFunc(out, func(e Engine) bool { return e.Name() == n }) {
			out = append(out, all[i])
		}
	}
	return out, nil
}
