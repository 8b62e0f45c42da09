package decode_test

import (
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
)

// TestDecodeFromCTC checks Result.FromCTC: never set without the CTC
// prefix beam, and set when the attention beam finishes nothing (an end
// of sentence never admitted), so that the transcript can only be one of
// the CTC beam's.
func TestDecodeFromCTC(t *testing.T) {
	m, err := asr.Default()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	frames := 200
	feats := make([]float32, frames*m.Config.MelBins)
	for i := range feats {
		feats[i] = float32(rng.NormFloat64())
	}
	var ws asr.Workspace
	e, err := m.Encode(&ws, feats, frames)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		ctcBeam int
		eos     float64
		want    bool
	}{
		{"no CTC beam", 0, 1.5, false},
		{"no CTC beam, no end", 0, 1e-9, false},
		{"attention never ends", 4, 1e-9, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := decode.DefaultOptions()
			o.Beam, o.CTCBeam, o.EOSThreshold, o.MaxLengthRatio = 2, tc.ctcBeam, tc.eos, 0.1
			r, err := decode.Decode(m, &ws, e, &o)
			if err != nil {
				t.Fatal(err)
			}
			if r.FromCTC != tc.want {
				t.Errorf("FromCTC %v, want %v (%q)", r.FromCTC, tc.want, r.Text)
			}
		})
	}
}
