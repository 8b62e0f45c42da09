package synth

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Espeak is the espeak-ng formant synthesizer. Its voices are the English
// accents espeak-ng lists (en-us, en-gb, en-gb-scotland, en-gb-x-rp,
// en-029, …), each plain and with every variant of
// "espeak-ng --voices=variant" ("en-us+klatt", "en-gb+f3", …): variants
// change pitch, formants, breathiness and the synthesis method, so one
// accent yields about a hundred distinct voices. MBROLA voices ("mb-…")
// are offered only when the mbrola program is installed and a test
// sentence renders.
//
// Tempo sets the speed in words per minute: 175·tempo (espeak-ng's
// default is 175), clamped to [80, 500].
type Espeak struct{}

// Name returns "espeak-ng".
func (Espeak) Name() string { return "espeak-ng" }

// espeakDefaultWPM is espeak-ng's default speaking rate.
const espeakDefaultWPM = 175

// Voices lists the English accents that render, crossed with the variants.
func (e Espeak) Voices(ctx context.Context) ([]string, error) {
	out, err := command(ctx, nil, "espeak-ng", "--voices=en")
	if err != nil {
		return nil, fmt.Errorf("synth: espeak-ng: %w", err)
	}
	accents, mbrola := parseEspeakVoices(out)
	vout, err := command(ctx, nil, "espeak-ng", "--voices=variant")
	if err != nil {
		return nil, fmt.Errorf("synth: espeak-ng: %w", err)
	}
	variants := parseEspeakVariants(vout)

	dir, err := os.MkdirTemp("", "synth-probe-")
	if err != nil {
		return nil, fmt.Errorf("synth: espeak-ng: %w", err)
	}
	defer os.RemoveAll(dir)
	probe := func(v string) bool {
		return e.Render(ctx, v, "test", 1, filepath.Join(dir, "probe.wav")) == nil
	}
	var voices []string
	for _, a := range accents {
		if !probe(a) {
			continue
		}
		voices = append(voices, a)
		for _, v := range variants {
			voices = append(voices, a+"+"+v)
		}
	}
	if hasProgram("mbrola") {
		for _, m := range mbrola {
			if probe(m) {
				voices = append(voices, m)
			}
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return voices, nil
}

// parseEspeakVoices reads the table of "espeak-ng --voices=en":
//
//	Pty Language       Age/Gender VoiceName          File                 Other Languages
//	 2  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)
//	 5  en-us           --/F      us-mbrola-1        mb/mb-us1            (en 8)
//
// It returns the distinct English accents (the Language column of the
// espeak voices) and the MBROLA voices (named by their file's base name).
func parseEspeakVoices(table []byte) (accents, mbrola []string) {
	sc := bufio.NewScanner(bytes.NewReader(table))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 || f[0] == "Pty" {
			continue
		}
		lang, file := f[1], f[4]
		switch {
		case strings.HasPrefix(file, "mb/"):
			mbrola = append(mbrola, strings.TrimPrefix(file, "mb/"))
		case lang == "en" || strings.HasPrefix(lang, "en-"):
			if !slices.Contains(accents, lang) {
				accents = append(accents, lang)
			}
		}
	}
	return accents, mbrola
}

// parseEspeakVariants reads "espeak-ng --voices=variant", whose File
// column is "!v/NAME", and returns the names.
func parseEspeakVariants(table []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(table))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 {
			continue
		}
		if name, ok := strings.CutPrefix(f[4], "!v/"); ok && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

// Render runs espeak-ng -v voice -s wpm -w path with the text on stdin.
func (Espeak) Render(ctx context.Context, voice, text string, tempo float64, path string) error {
	if err := removeStale(path); err != nil {
		return fmt.Errorf("synth: espeak-ng: %w", err)
	}
	wpm := int(math.Round(espeakDefaultWPM * tempo))
	wpm = min(max(wpm, 80), 500)
	_, err := command(ctx, strings.NewReader(text), "espeak-ng", "--stdin",
		"-v", voice, "-s", strconv.Itoa(wpm), "-w", path)
	if err == nil {
		err = checkWAV("espeak-ng", path)
	}
	if err != nil {
		return fmt.Errorf("synth: espeak-ng voice %s: %w", voice, err)
	}
	return nil
}
