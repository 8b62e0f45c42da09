package speecheval

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/metrics"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/synth"
)

// TimingMode chooses the alignments TimingAccuracy measures.
type TimingMode int

const (
	TimingBoth   TimingMode = iota // forced and free (the default)
	TimingForced                   // forced alignment of the reference only
	TimingFree                     // free decoding only
)

// TimingOptions configures TimingAccuracy; zero fields mean the defaults
// noted.
type TimingOptions struct {
	Clips      int        // synthetic clips (20)
	Words      int        // words per clip (6)
	Tolerance  float64    // seconds a derived word start may miss by (0.1)
	Voice      string     // espeak-ng voice ("en-us")
	Seed       uint64     // word and gap choice
	Vocabulary []string   // words to draw from (a built-in list of common words)
	Mode       TimingMode // alignments to measure (both)
}

// TimingStats is the accuracy of the derived start times of one kind of
// alignment.
type TimingStats struct {
	Words  int `json:"words"`  // words whose start was compared
	Within int `json:"within"` // of them, those within the tolerance
	// MeanAbsError and MedianAbsError are the absolute start errors over
	// the compared words, in seconds.
	MeanAbsError   float64 `json:"mean_abs_error"`
	MedianAbsError float64 `json:"median_abs_error"`
}

// Fraction is the share of compared words whose derived start lies
// within the tolerance of the truth.
func (s TimingStats) Fraction() float64 {
	if s.Words == 0 {
		return 0
	}
	return float64(s.Within) / float64(s.Words)
}

// TimingReport is the accuracy of derived word start times on synthetic
// clips.
type TimingReport struct {
	Clips    int `json:"clips"`
	RefWords int `json:"ref_words"`
	// Forced compares every reference word, its time from the forced
	// alignment of the reference (Transcriber.AlignStream).
	Forced TimingStats `json:"forced,omitzero"`
	// Free compares the words that free decoding recognized
	// (Transcriber.Stream), matched to the reference by Levenshtein
	// alignment.
	Free TimingStats `json:"free,omitzero"`
}

var timingWords = strings.Fields(`the quick brown fox jumps over lazy dog water under
morning house people little number great small green yellow father mother
river garden window yesterday tomorrow seven eleven twenty music better
answer picture school teacher family summer winter beautiful evening orange`)

// TimingAccuracy measures how well word times derived from the attention
// alignment match the truth, on synthetic clips whose word boundaries are
// known: each clip concatenates single words rendered by espeak-ng (each
// trimmed to its speech by energy) with random pauses of 0.15–0.5 s, so
// the true start of every word is known to the sample. A word counts as
// within when its derived start is within the tolerance of the truth. The
// transcriber's search options apply to free decoding.
func TimingAccuracy(ctx context.Context, tr *speech.Transcriber, o TimingOptions) (*TimingReport, error) {
	if o.Clips <= 0 {
		o.Clips = 20
	}
	if o.Words <= 0 {
		o.Words = 6
	}
	if o.Tolerance <= 0 {
		o.Tolerance = 0.1
	}
	rep := &TimingReport{}
	var forced, free []float64 // absolute start errors
	err := timingClips(ctx, o, func(name string, samples []float32, ref []speechmodel.Word) error {
		sig := &audio.Signal{Rate: speechmodel.SampleRate, Channels: 1, Samples: samples}
		refWords := make([]string, len(ref))
		for i, w := range ref {
			refWords[i] = w.Word
		}
		if o.Mode != TimingFree {
			t, err := tr.AlignStream(name, sig.Stream(), strings.Join(refWords, " "))
			if err != nil {
				return err
			}
			hyp := transcriptWords(t)
			if len(hyp) != len(ref) {
				return fmt.Errorf("%s: forced alignment timed %d words of %d", name, len(hyp), len(ref))
			}
			for i, w := range hyp {
				forced = append(forced, math.Abs(w.Start-ref[i].Start))
			}
		}
		if o.Mode != TimingForced {
			t, err := tr.Stream(name, sig.Stream())
			if err != nil {
				return err
			}
			hyp := transcriptWords(t)
			hypWords := make([]string, len(hyp))
			for i, w := range hyp {
				hypWords[i] = w.Word
			}
			_, ops := metrics.Align(refWords, hypWords)
			for _, op := range ops {
				if op.Kind == metrics.Match {
					free = append(free, math.Abs(hyp[op.Hyp].Start-ref[op.Ref].Start))
				}
			}
		}
		rep.Clips++
		rep.RefWords += len(ref)
		return nil
	})
	if err != nil {
		return nil, err
	}
	rep.Forced, rep.Free = timingStats(forced, o.Tolerance), timingStats(free, o.Tolerance)
	return rep, nil
}

// transcriptWords returns the timed words of all chunks, in order.
func transcriptWords(t *speech.Transcript) []speechmodel.Word {
	var words []speechmodel.Word
	for _, c := range t.Chunks {
		words = append(words, c.Words...)
	}
	return words
}

// timingStats summarizes absolute errors against a tolerance.
func timingStats(errs []float64, tol float64) TimingStats {
	s := TimingStats{Words: len(errs)}
	if len(errs) == 0 {
		return s
	}
	sorted := slices.Sorted(slices.Values(errs))
	for _, e := range sorted {
		s.MeanAbsError += e / float64(len(errs))
		if e <= tol {
			s.Within++
		}
	}
	n := len(sorted)
	s.MedianAbsError = (sorted[(n-1)/2] + sorted[n/2]) / 2
	return s
}

// timingClips renders o.Clips clips of o.Words words drawn from
// o.Vocabulary (seeded by o.Seed) and calls clip with each one's 16 kHz
// samples and its words' true spans.
func timingClips(ctx context.Context, o TimingOptions, clip func(name string, samples []float32, ref []speechmodel.Word) error) error {
	if o.Voice == "" {
		o.Voice = "en-us"
	}
	if len(o.Vocabulary) == 0 {
		o.Vocabulary = timingWords
	}
	dir, err := os.MkdirTemp("", "attend-timing-")
	if err != nil {
		return err
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
		sig, err := speechmodel.Load(path, nil)
		if err != nil {
			return nil, err
		}
		s := trimSilence(sig.Samples, sig.Rate)
		renders[word] = s
		return s, nil
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x71))
	for c := range o.Clips {
		var samples []float32
		var ref []speechmodel.Word
		pause := func() {
			samples = append(samples, make([]float32, int((0.15+0.35*rng.Float64())*speechmodel.SampleRate))...)
		}
		pause()
		for range o.Words {
			w := o.Vocabulary[rng.IntN(len(o.Vocabulary))]
			s, err := render(w)
			if err != nil {
				return err
			}
			start := float64(len(samples)) / speechmodel.SampleRate
			samples = append(samples, s...)
			ref = append(ref, speechmodel.Word{Word: w, Start: start, End: float64(len(samples)) / speechmodel.SampleRate})
			pause()
		}
		if err := clip(fmt.Sprintf("timing clip %d", c+1), samples, ref); err != nil {
			return err
		}
	}
	return nil
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
