package speech_test

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
	"github.com/attend-go/attend/pipeline/batch"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// TestTranscribeGuards runs the embedded model on inputs unlike its
// training data — silence, white noise, a minute of speech repeated — and
// checks the guards rather than the words: no error, output length within
// the search's bound, contiguous chunks of at most 15 s, word times
// inside their chunk and never going backwards.
func TestTranscribeGuards(t *testing.T) {
	hello, err := speechmodel.Load(filepath.Join("..", "..", "testdata", "hello.wav"), nil)
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
		tr, err := speech.NewTranscriber(speechmodel.NewLAS(model, &decode.Options{LengthPenalty: 1, EOSThreshold: 1.5, CTCWeight: 0.3, Beam: beam}), nil)
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
					frames := (c.End - c.Start) / speechmodel.FrameSeconds / float64(model.Config.Reduction())
					if limit := 1.5*frames + 11; float64(len(c.Text)) > limit {
						t.Errorf("chunk %d: %d characters, over the search's bound %.0f", i, len(c.Text), limit)
					}
					for _, w := range c.Words {
						if w.Start < prevWord-1e-9 || w.End < w.Start || w.Start < c.Start-1e-9 || w.End > c.End+float64(model.Config.Reduction())*speechmodel.FrameSeconds {
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

// TestTranscribeWordTimes checks the word times of free decoding on
// testdata/hello.wav, whatever the model recognizes: in order, inside
// the chunk, with confidences in (0, 1]. Where the attention output is
// kept, forcing the decoded text through the speller (Align) repeats the
// search's steps, so it must time the words exactly as transcription
// did: both place characters on the same monotonic attention + CTC path.
// After a CTC fallback, each word starts at the frame where the CTC best
// path emitted its first character (or where the word before it ends).
func TestTranscribeWordTimes(t *testing.T) {
	hello := loadHello(t)
	for _, tc := range []struct {
		name     string
		search   decode.Options
		fallback bool
	}{
		{"greedy attention", decode.Options{LengthPenalty: 1, EOSThreshold: 1.5, Beam: 1, NoFallback: true}, false},
		{"beam with CTC scoring", decode.Options{LengthPenalty: 1, EOSThreshold: 1.5, CTCWeight: 0.3, Beam: 4, NoFallback: true}, false},
		// 10 characters at most: attention cannot finish, CTC takes over.
		{"CTC fallback", decode.Options{LengthPenalty: 1, EOSThreshold: 1.5, CTCWeight: 0.3, Beam: 4, MaxLengthRatio: 1e-3}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := searchTranscriber(t, tc.search, &speech.TranscribeOptions{KeepAlignment: true})
			got, err := tr.Stream("hello", hello.Stream())
			if err != nil {
				t.Fatal(err)
			}
			frameSec := tr.Model.Info().EncoderFrameSeconds
			checkTimes(t, got, strings.Fields(got.Text), frameSec)
			if len(got.Chunks) != 1 || len(got.Chunks[0].Words) == 0 {
				t.Fatalf("want one chunk with words, got %+v", got.Chunks)
			}
			c := got.Chunks[0]
			for _, w := range c.Words {
				if !(w.Confidence > 0 && w.Confidence <= 1) {
					t.Errorf("word %+v: confidence outside (0, 1]", w)
				}
			}
			if (c.Fallback != "" && tc.fallback) != tc.fallback {
				t.Fatalf("fallback %q, want one: %v", c.Fallback, tc.fallback)
			}
			if tc.fallback {
				checkCTCFrames(t, c, frameSec)
				return
			}
			if want := speechdata.Normalize(c.Text); c.Text != want {
				t.Fatalf("decoded text %q is not normalized (%q): forced alignment would spell other tokens", c.Text, want)
			}
			forced, err := tr.AlignStream("hello", hello.Stream(), c.Text)
			if err != nil {
				t.Fatal(err)
			}
			fw := forced.Chunks[0].Words
			if len(fw) != len(c.Words) {
				t.Fatalf("forced alignment timed %d words, transcription %d", len(fw), len(c.Words))
			}
			for i, w := range c.Words {
				if w.Word != fw[i].Word || math.Abs(w.Start-fw[i].Start) > 1e-6 || math.Abs(w.End-fw[i].End) > 1e-6 ||
					math.Abs(w.Confidence-fw[i].Confidence) > 1e-4 {
					t.Errorf("word %d: transcribed %+v, forced %+v", i, w, fw[i])
				}
			}
		})
	}
}

// checkCTCFrames checks that each word of a fallback chunk starts at its
// first character's CTC frame (the peak of its one-hot alignment row), or
// at the end of the word before when that is later.
func checkCTCFrames(t *testing.T, c speech.Chunk, frameSec float64) {
	t.Helper()
	var starts []float64
	inWord := false
	for i, ch := range c.Chars {
		if ch == " " {
			inWord = false
			continue
		}
		if !inWord {
			starts = append(starts, c.Start+float64(slices.Index(c.Alignment[i], 1))*frameSec)
		}
		inWord = true
	}
	if len(starts) != len(c.Words) {
		t.Fatalf("%d words, %d word starts in the alignment", len(c.Words), len(starts))
	}
	prevEnd := c.Start
	for i, w := range c.Words {
		if want := max(starts[i], prevEnd); math.Abs(w.Start-want) > 1e-9 {
			t.Errorf("word %+v starts at %.3f s, want its CTC frame's %.3f s", w, w.Start, want)
		}
		prevEnd = w.End
	}
}

// TestOpenErrors checks the errors of the three ways a file is opened —
// File, Align and a batch worker — which share one opener: a missing
// file and a file that is not audio, each named in the error.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	notAudio := filepath.Join(dir, "notes.wav")
	if err := os.WriteFile(notAudio, []byte("not audio at all, just text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr := defaultTranscriber(t, nil)
	proc, err := speech.BatchFactory(tr.Model, nil)(0)
	if err != nil {
		t.Fatal(err)
	}
	opens := []struct {
		how  string
		open func(path string) error
	}{
		{"File", func(path string) error { _, err := tr.File(path, nil); return err }},
		{"Align", func(path string) error { _, err := tr.Align(path, nil, helloText); return err }},
		{"batch", func(path string) error { _, err := proc(context.Background(), batch.Input{Path: path}); return err }},
	}
	for _, tc := range []struct {
		name string
		path string
		want error
	}{
		{"missing", filepath.Join(dir, "missing.wav"), fs.ErrNotExist},
		{"not audio", notAudio, audio.ErrFormat},
	} {
		for _, o := range opens {
			t.Run(o.how+" "+tc.name, func(t *testing.T) {
				err := o.open(tc.path)
				if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.path) {
					t.Errorf("error %v, want one wrapping %v and naming %s", err, tc.want, tc.path)
				}
			})
		}
	}
}

// BenchmarkTranscribeStream times the transcription of testdata/hello.wav
// (3.4 s) with the embedded model and the default search, word timing
// included.
func BenchmarkTranscribeStream(b *testing.B) {
	hello, tr := loadHello(b), defaultTranscriber(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tr.Stream("hello", hello.Stream()); err != nil {
			b.Fatal(err)
		}
	}
}
