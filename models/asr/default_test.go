package asr_test

import (
	"testing"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
)

// TestDefaultModel loads the embedded model and runs it on a second of
// noise-free silence-like input: it must load, encode and decode without
// error, and its vocabulary must be the default one.
func TestDefaultModel(t *testing.T) {
	m, err := asr.Default()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Vocab.List(), asr.DefaultVocab().List(); len(got) != len(want) {
		t.Fatalf("vocabulary %q, want %q", got, want)
	}
	if again, _ := asr.Default(); again != m {
		t.Error("Default parsed the embedded file twice")
	}
	frames := 100
	feats := make([]float32, frames*m.Config.MelBins)
	var ws asr.Workspace
	e, err := m.Encode(&ws, feats, frames)
	if err != nil {
		t.Fatal(err)
	}
	if want := m.EncoderLength(frames); e.T != want {
		t.Errorf("%d encoder frames, want %d", e.T, want)
	}
	if _, err := decode.Decode(m, &ws, e, nil); err != nil {
		t.Fatal(err)
	}
}
