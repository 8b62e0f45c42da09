package speech_test

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline"
	"github.com/attend-go/attend/pipeline/speech"
)

// TestTranscribeGuards runs the embedded model on inputs unlike its
// training data — silence, white noise, a minute of speech repeated — and
// checks the guards rather than the words: no error, output length within
// the search's bound, contiguous chunks of at most 15 s, word times
// inside their chunk and never going backwards.
func TestTranscribeGuards(t *testing.T) {
	hello, err := pipeline.LoadSpeech(filepath.Join("..", "..", "testdata", "hello.wav"), nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	noise := make([]float32, 3*16000)
	for i := range noise {
		noise[i] = float32(0.3 * rng.NormFloat64())
	}
	var minute []float32
	for len(minute) < 60*16000 {
		minute = append(minute, hello.Samples...)
	}
	minute = minute[:60*16000]
	cases := []struct {
		name    string
		samples []float32
	}{
		{"silence", make([]float32, 3*16000)},
		{"white noise", noise},
		{"60 s of speech", minute},
	}
	model, err := asr.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, beam := range []int{1, 4} {
		tr, err := speech.NewTranscriber(model, &speech.TranscribeOptions{Search: asr.SearchOptions{Beam: beam}})
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range cases {
			t.Run(tc.name, func(t *testing.T) {
				sig := &audio.Signal{Rate: 16000, Channels: 1, Samples: tc.samples}
				got, err := tr.Stream(tc.name, sig.Stream())
				if err != nil {
					t.Fatal(err)
				}
				dur := float64(len(tc.samples)) / 16000
				if math.Abs(got.Duration-dur) > 0.01 {
					t.Errorf("duration %.3f s, want %.3f", got.Duration, dur)
				}
				prevEnd, prevWord := 0.0, 0.0
				for i, c := range got.Chunks {
					if c.Start != prevEnd || c.End-c.Start > 15.001 {
						t.Errorf("chunk %d spans %.2f–%.2f after %.2f: want contiguous chunks of ≤ 15 s", i, c.Start, c.End, prevEnd)
					}
					prevEnd = c.End
					frames := (c.End - c.Start) / speech.FrameSeconds / float64(model.Config.Reduction())
					if limit := 1.5*frames + 11; float64(len(c.Text)) > limit {
						t.Errorf("chunk %d: %d characters, over the search's bound %.0f", i, len(c.Text), limit)
					}
					for _, w := range c.Words {
						if w.Start < prevWord-1e-9 || w.End < w.Start || w.Start < c.Start-1e-9 || w.End > c.End+float64(model.Config.Reduction())*speech.FrameSeconds {
							t.Errorf("chunk %d word %+v out of order or outside %.2f–%.2f", i, w, c.Start, c.End)
						}
						prevWord = w.Start
					}
				}
				if want := strings.Join(strings.Fields(got.Text), " "); got.Text != want {
					t.Errorf("text %q has stray spaces", got.Text)
				}
			})
		}
	}
}
