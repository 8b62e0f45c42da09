package speech_test

import (
	"path/filepath"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// TestTranscribeSkipsDigitalSilence checks that digital silence around
// a chunk is not decoded: padding a clip with zeros gives the same words,
// shifted by the padding, in transcription and in forced alignment, and
// a chunk of zeros alone has no words (and is no speech with the VAD).
func TestTranscribeSkipsDigitalSilence(t *testing.T) {
	hello, err := speechmodel.Load(filepath.Join("..", "..", "testdata", "hello.wav"), nil)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := audio.TrimDigitalSilence(hello.Samples, 1) // sound at both ends
	hello.Samples = hello.Samples[lo:hi]
	const pad = 0.6 // seconds
	zeros := make([]float32, int(pad*16000))
	padded := append(append(append([]float32(nil), zeros...), hello.Samples...), zeros...)
	model, err := asr.Default()
	if err != nil {
		t.Fatal(err)
	}
	search := decode.Options{LengthPenalty: 1, EOSThreshold: 1.5, CTCWeight: 0.3, Beam: 1}
	for _, tc := range []struct {
		name  string
		noVAD bool
	}{{"VAD", false}, {"no VAD", true}} {
		t.Run(tc.name, func(t *testing.T) {
			tr, err := speech.NewTranscriber(speechmodel.NewLAS(model, &search), &speech.TranscribeOptions{NoVAD: tc.noVAD})
			if err != nil {
				t.Fatal(err)
			}
			stream := func(x []float32) audio.Stream {
				return (&audio.Signal{Samples: x, Rate: 16000, Channels: 1}).Stream()
			}
			plain, err := tr.Stream("hello", stream(hello.Samples))
			if err != nil {
				t.Fatal(err)
			}
			got, err := tr.Stream("padded", stream(padded))
			if err != nil {
				t.Fatal(err)
			}
			if got.Text != plain.Text || got.Text == "" {
				t.Fatalf("padded with digital silence: %q, want %q", got.Text, plain.Text)
			}
			checkShifted(t, words(got), words(plain), pad)
			if c := got.Chunks[0]; tc.noVAD && abs(c.Offset-pad) > 1e-3 {
				t.Errorf("first chunk decoded from %v s after its start, want %v", c.Offset, pad)
			}
			forcedPlain, err := tr.AlignStream("hello", stream(hello.Samples), plain.Text)
			if err != nil {
				t.Fatal(err)
			}
			forced, err := tr.AlignStream("padded", stream(padded), plain.Text)
			if err != nil {
				t.Fatal(err)
			}
			checkShifted(t, words(forced), words(forcedPlain), pad)
			silent, err := tr.Stream("zeros", stream(make([]float32, 16000)))
			if err != nil {
				t.Fatal(err)
			}
			if silent.Text != "" || silent.Chunks[0].NoSpeech == tc.noVAD {
				t.Errorf("digital silence: text %q, chunk %+v", silent.Text, silent.Chunks[0])
			}
		})
	}
}

func words(tr *speech.Transcript) []speechmodel.Word {
	var w []speechmodel.Word
	for _, c := range tr.Chunks {
		w = append(w, c.Words...)
	}
	return w
}

// checkShifted checks that got is want shifted by pad seconds.
func checkShifted(t *testing.T, got, want []speechmodel.Word, pad float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d words, want %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Word != w.Word || abs(g.Start-w.Start-pad) > 1e-3 || abs(g.End-w.End-pad) > 1e-3 {
			t.Errorf("word %d: %+v, want %+v shifted by %v s", i, g, w, pad)
		}
	}
}

func abs(x float64) float64 { return max(x, -x) }
