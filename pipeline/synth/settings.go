package synth

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// settings is what a directory's clips depend on, stored as
// settings.json: a resumed run must match it exactly.
type settings struct {
	Format    int           `json:"format"`
	Sentences int           `json:"sentences"`
	TextHash  string        `json:"sentences_sha256"` // over Text and Norm of every sentence, in order
	Options   Options       `json:"options"`          // defaults filled in
	Voices    []engineVoice `json:"voices"`
}

type engineVoice struct {
	Engine string   `json:"engine"`
	Voices []string `json:"voices"`
}

// settingsFormat is bumped whenever the same settings would render
// different clips.
const settingsFormat = 1

func newSettings(sentences []Sentence, voices []Found, o Options) settings {
	h := sha256.New()
	for _, s := range sentences {
		fmt.Fprintf(h, "%s\x00%s\x00", s.Text, s.Norm)
	}
	st := settings{Format: settingsFormat, Sentences: len(sentences), TextHash: hex.EncodeToString(h.Sum(nil)), Options: o.withDefaults()}
	for _, f := range voices {
		st.Voices = append(st.Voices, engineVoice{f.Engine.Name(), f.Voices})
	}
	return st
}

// claimDir writes dir/settings.json, or checks that the one there equals
// st. A directory with clips but no settings is refused too.
func claimDir(dir string, st settings) error {
	path := filepath.Join(dir, "settings.json")
	want, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	want = append(want, '\n')
	have, err := os.ReadFile(path)
	switch {
	case err == nil:
		if bytes.Equal(have, want) {
			return nil
		}
		var old settings
		what := "settings"
		if json.Unmarshal(have, &old) == nil {
			what = settingsDiff(old, st)
		}
		return fmt.Errorf("%w (%s differ from %s); render into a new directory", ErrSettingsChanged, what, path)
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("synth: %w", err)
	}
	if clips, _ := filepath.Glob(filepath.Join(dir, "wav", "*.wav")); len(clips) > 0 {
		return fmt.Errorf("%w: %s holds clips but no settings.json; render into a new directory", ErrSettingsChanged, dir)
	}
	if err := writeFileAtomic(path, func(w io.Writer) error { _, err := w.Write(want); return err }); err != nil {
		return fmt.Errorf("synth: %w", err)
	}
	return nil
}

// settingsDiff names the parts of two settings that differ.
func settingsDiff(a, b settings) string {
	eq := func(x, y any) bool {
		bx, _ := json.Marshal(x)
		by, _ := json.Marshal(y)
		return bytes.Equal(bx, by)
	}
	switch {
	case a.Format != b.Format:
		return "format versions"
	case a.TextHash != b.TextHash || a.Sentences != b.Sentences:
		return "sentences"
	case !eq(a.Voices, b.Voices):
		return "voices"
	case !eq(a.Options, b.Options):
		return "options"
	}
	return "settings"
}
