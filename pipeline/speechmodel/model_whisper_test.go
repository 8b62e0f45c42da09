package speechmodel_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// TestWhisperPartial checks a Whisper model's live partial hypothesis:
// text only, one window encoded and fewer decoder steps than the full
// transcription (which times words and falls back at higher
// temperatures), and the full decode of the same encoding unchanged.
func TestWhisperPartial(t *testing.T) {
	dir, err := shareddata.Lookup("whisper")
	if err != nil {
		t.Skip(err)
	}
	model := filepath.Join(dir, "small-en.ggml-f16.bin")
	if _, err := os.Stat(model); err != nil {
		t.Skip(err)
	}
	m, err := speechmodel.Open(model, &speechmodel.Decoding{Whisper: speechmodel.WhisperOptions{Language: "en", NoFallback: true}})
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "clips", "jfk.wav"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sig, err := audio.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := m.NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	e, err := dec.Encode(sig.Samples)
	if err != nil {
		t.Fatal(err)
	}
	partial, err := dec.Decode(e, &speechmodel.DecodeOptions{Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	full, err := dec.Decode(e, nil)
	if err != nil {
		t.Fatal(err)
	}
	if partial.Text == "" || len(partial.Words) != 0 {
		t.Errorf("partial: text %q with %d words, want text and no word timing", partial.Text, len(partial.Words))
	}
	if p, f := partial.Stages, full.Stages; p.EncodeWindows != 1 || p.DecodeTokens >= f.DecodeTokens {
		t.Errorf("partial: %d windows, %d decoder steps; full: %d windows, %d steps", p.EncodeWindows, p.DecodeTokens, f.EncodeWindows, f.DecodeTokens)
	}
	if len(full.Words) == 0 || full.Text == "" {
		t.Errorf("full decode after a partial: text %q, %d words", full.Text, len(full.Words))
	}
}
