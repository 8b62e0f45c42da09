package speech

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline"
	"github.com/attend-go/attend/pipeline/metrics"
	"github.com/attend-go/attend/pipeline/synth"
)

// TimingOptions configures TimingAccuracy; zero fields mean the defaults
// noted.
type TimingOptions struct {
	Clips      int           // synthetic clips (20)
	Words      int           // words per clip (6)
	Tolerance  float64       // seconds a derived word start may miss by (0.1)
	Voice      string        // espeak-ng voice ("en-us")
	Seed       uint64        // word and gap choice
	Vocabulary []string      // words to draw from (a built-in list of common words)
	Search     SearchOptions // decoding
}

// TimingReport is the accuracy of derived word start times.
type TimingReport struct {
	Clips, RefWords, Matched, Within int
	MeanAbsError                     float64 // seconds, over matched words
}

// Fraction is the share of matched words whose derived start lies within
// the tolerance of the truth.
func (r TimingReport) Fraction() float64 {
	if r.Matched == 0 {
		return 0
	}
	return float64(r.Within) / float64(r.Matched)
}

var timingWords = strings.Fields(`the quick brown fox jumps over lazy dog water under
morning house people little number great small green yellow father mother
river garden window yesterday tomorrow seven eleven twenty music better
answer picture school teacher family summer winter beautiful evening orange`)

// TimingAccuracy measures how well word times derived from the attention
// alignment match the truth, on synthetic clips whose word boundaries are
// known: each clip concatenates single words rendered by espeak-ng (each
// trimmed to its speech by energy) with random pauses of 0.15–0.5 s, so
// the true start of every word is known to the sample. Hypothesis words
// are aligned to the reference words (Levenshtein); a matched word counts
// when its derived start is within the tolerance.
func TimingAccuracy(ctx context.Context, model *Transcriber, o TimingOptions) (*TimingReport, error) {
	if o.Clips <= 0 {
		o.Clips = 20
	}
	if o.Words <= 0 {
		o.Words = 6
	}
	if o.Tolerance <= 0 {
		o.Tolerance = 0.1
	}
	if o.Voice == "" {
		o.Voice = "en-us"
	}
	if len(o.Vocabulary) == 0 {
		o.Vocabulary = timingWords
	}
	dir, err := os.MkdirTemp("", "attend-timing-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	renders := map[string][]float32{}
	render := func(word string) ([]float32, error) {
		if s, ok := renders[word]; ok {
			return s, nil
		}
		path := filepath.Join(dir, word+".wav")
		if err := (synth.Espeak{}).Render(ctx, o.Voice, word, 1, path); err != nil {
			return nil, err
		}
		sig, err := pipeline.LoadSpeech(path, nil)
		if err != nil {
			return nil, err
		}
		s := trimSilence(sig.Samples, sig.Rate)
		renders[word] = s
		return s, nil
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x71))
	rep := &TimingReport{}
	absErr := 0.0
	for c := 0; c < o.Clips; c++ {
		var samples []float32
		var ref []Word
		pause := func() {
			samples = append(samples, make([]float32, int((0.15+0.35*rng.Float64())*pipeline.SpeechRate))...)
		}
		pause()
		for range o.Words {
			w := o.Vocabulary[rng.IntN(len(o.Vocabulary))]
			s, err := render(w)
			if err != nil {
				return nil, err
			}
			start := float64(len(samples)) / pipeline.SpeechRate
			samples = append(samples, s...)
			ref = append(ref, Word{Word: w, Start: start, End: float64(len(samples)) / pipeline.SpeechRate})
			pause()
		}
		sig := &audio.Signal{Rate: pipeline.SpeechRate, Channels: 1, Samples: samples}
		t, err := model.Stream(fmt.Sprintf("timing clip %d", c+1), sig.Stream())
		if err != nil {
			return nil, err
		}
		var hyp []Word
		for _, ch := range t.Chunks {
			hyp = append(hyp, ch.Words...)
		}
		refWords, hypWords := make([]string, len(ref)), make([]string, len(hyp))
		for i, w := range ref {
			refWords[i] = w.Word
		}
		for i, w := range hyp {
			hypWords[i] = w.Word
		}
		_, ops := metrics.Align(refWords, hypWords)
		for _, op := range ops {
			if op.Kind != metrics.Match {
				continue
			}
			d := math.Abs(hyp[op.Hyp].Start - ref[op.Ref].Start)
			rep.Matched++
			absErr += d
			if d <= o.Tolerance {
				rep.Within++
			}
		}
		rep.Clips++
		rep.RefWords += len(ref)
	}
	if rep.Matched > 0 {
		rep.MeanAbsError = absErr / float64(rep.Matched)
	}
	return rep, nil
}

// trimSilence cuts leading and trailing samples quieter than 1% of the
// peak (−40 dB), in 5 ms windows.
func trimSilence(x []float32, rate int) []float32 {
	peak := float32(0)
	for _, v := range x {
		peak = max(peak, float32(math.Abs(float64(v))))
	}
	win := rate / 200
	loud := func(i int) bool {
		for _, v := range x[i:min(i+win, len(x))] {
			if float32(math.Abs(float64(v))) > 0.01*peak {
				return true
			}
		}
		return false
	}
	lo, hi := 0, len(x)
	for lo < hi && !loud(lo) {
		lo += win
	}
	lo = min(lo, hi)
	for hi-win > lo && !loud(hi-win) {
		hi -= win
	}
	return x[lo:hi]
}
