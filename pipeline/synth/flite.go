package synth

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Flite is CMU Flite. Its voices are those "flite -lv" lists that render
// a test sentence (Debian's flite has kal, kal16, awb, rms and slt),
// except the limited-domain ones ("awb_time" only speaks the time of day).
// kal is an 8 kHz diphone voice, the others are 16 kHz.
//
// Tempo sets the feature duration_stretch to 1/tempo.
type Flite struct{}

// Name returns "flite".
func (Flite) Name() string { return "flite" }

// Voices lists the general-purpose voices that render.
func (f Flite) Voices(ctx context.Context) ([]string, error) {
	out, err := command(ctx, nil, "flite", "-lv")
	if err != nil {
		return nil, fmt.Errorf("synth: flite: %w", err)
	}
	listed := parseFliteVoices(string(out))
	dir, err := os.MkdirTemp("", "synth-probe-")
	if err != nil {
		return nil, fmt.Errorf("synth: flite: %w", err)
	}
	defer os.RemoveAll(dir)
	var voices []string
	for _, v := range listed {
		if f.Render(ctx, v, "test", 1, filepath.Join(dir, "probe.wav")) == nil {
			voices = append(voices, v)
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return voices, nil
}

// parseFliteVoices reads "Voices available: kal awb_time kal16 …",
// dropping limited-domain voices (suffix "_time").
func parseFliteVoices(out string) []string {
	_, list, ok := strings.Cut(out, ":")
	if !ok {
		return nil
	}
	var voices []string
	for _, v := range strings.Fields(list) {
		if !strings.HasSuffix(v, "_time") {
			voices = append(voices, v)
		}
	}
	return voices
}

// Render runs flite -voice voice --setf duration_stretch=1/tempo -f text -o path.
// flite reads text from a file (a -t argument that starts with "-" would
// be taken for an option), written next to path and removed after.
func (Flite) Render(ctx context.Context, voice, text string, tempo float64, path string) error {
	if err := removeStale(path); err != nil {
		return fmt.Errorf("synth: flite: %w", err)
	}
	txt := path + ".txt"
	if err := os.WriteFile(txt, []byte(text+"\n"), 0o644); err != nil {
		return fmt.Errorf("synth: flite: %w", err)
	}
	defer os.Remove(txt)
	stretch := strconv.FormatFloat(1/tempo, 'f', 4, 64)
	_, err := command(ctx, nil, "flite", "-voice", voice, "--setf", "duration_stretch="+stretch, "-f", txt, "-o", path)
	if err == nil {
		err = checkWAV("flite", path)
	}
	if err != nil {
		return fmt.Errorf("synth: flite voice %s: %w", voice, err)
	}
	return nil
}
