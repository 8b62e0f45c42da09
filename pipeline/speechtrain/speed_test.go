package speechtrain

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/pipeline/speechdata"
)

// crossings counts the upward zero crossings of x.
func crossings(x []float32) int {
	n := 0
	for i := 1; i < len(x); i++ {
		if x[i-1] < 0 && x[i] >= 0 {
			n++
		}
	}
	return n
}

func TestSpeedUpScalesDurationAndPitch(t *testing.T) {
	const rate, hz = 16000, 440.0
	tone := &audio.Signal{Rate: rate, Channels: 1, Samples: make([]float32, rate)}
	for i := range tone.Samples {
		tone.Samples[i] = float32(0.5 * math.Sin(2*math.Pi*hz*float64(i)/rate))
	}
	for _, tc := range []struct {
		name   string
		factor float64
		bad    bool
	}{
		{"unchanged", 1, false},
		{"faster", 1.1, false},
		{"slower", 0.9, false},
		{"twice", 2, false},
		{"too slow", 0.4, true},
		{"too fast", 2.5, true},
		{"not a number", math.NaN(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := speedUp(tone, tc.factor)
			if tc.bad {
				if err == nil {
					t.Fatalf("speed %g: no error", tc.factor)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Rate != rate {
				t.Errorf("rate %d, want %d", got.Rate, rate)
			}
			secs := float64(len(got.Samples)) / rate
			if want := 1 / tc.factor; math.Abs(secs-want) > 0.002 {
				t.Errorf("lasts %.4f s, want %.4f s", secs, want)
			}
			// Over its 1/factor seconds the tone still makes 440 cycles:
			// its pitch is factor·440 Hz.
			if n := crossings(got.Samples); math.Abs(float64(n)-hz) > 2 {
				t.Errorf("%d cycles, want %v", n, hz)
			}
		})
	}
}

func TestLoadUtterancesAddsSpeedCopies(t *testing.T) {
	utts, err := speechdata.Read(filepath.Join("..", "..", "testdata", "speech", "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	utts = utts[:3]
	vocab := asr.DefaultVocab()
	for _, tc := range []struct {
		name   string
		speeds []float64
	}{
		{"none", nil},
		{"Kaldi's", []float64{0.9, 1.1}},
		{"one listed twice", []float64{1, 1.1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, skipped, err := loadUtterances(context.Background(), utts, vocab, LoadOptions{Speeds: tc.speeds, Workers: 1})
			if err != nil || len(skipped) > 0 {
				t.Fatalf("err %v, skipped %v", err, skipped)
			}
			factors := []float64{1}
			for _, s := range tc.speeds {
				if s != 1 {
					factors = append(factors, s)
				}
			}
			if len(got) != len(utts)*len(factors) {
				t.Fatalf("%d examples from %d utterances, want %d", len(got), len(utts), len(utts)*len(factors))
			}
			for i, u := range got {
				orig := got[i-i%len(factors)]
				f := factors[i%len(factors)]
				if u.Path != orig.Path || !slices.Equal(u.Example.Tokens, orig.Example.Tokens) {
					t.Errorf("example %d is %s, want a copy of %s", i, u.Path, orig.Path)
				}
				if want := orig.Seconds / f; math.Abs(u.Seconds-want) > 0.01 {
					t.Errorf("%s at speed %g lasts %.3f s, want %.3f s", u.Path, f, u.Seconds, want)
				}
			}
		})
	}
}
