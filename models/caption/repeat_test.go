package caption_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/caption"
)

// loopModel says "a dog on a dog on …" without end unless stopped: after
// "dog", "on" (0.6) beats <end> (0.4); after "a", "dog" (0.9) and after
// "on", "a" (0.9) beat <end> (0.1).
func loopModel(t *testing.T) *caption.Model {
	return bigramModel(t, map[string]map[string]float64{
		"<start>": {"a": 1},
		"a":       {"dog": 0.9, "<end>": 0.1},
		"dog":     {"on": 0.6, "<end>": 0.4},
		"on":      {"a": 0.9, "<end>": 0.1},
	})
}

// TestNoRepeatNGram checks n-gram blocking and the repetition penalty on
// the loop model, with greedy search and beam search.
func TestNoRepeatNGram(t *testing.T) {
	m := loopModel(t)
	features := make([]float32, m.Config.Regions*m.Config.FeatureDim)
	for _, tc := range []struct {
		name string
		opts caption.SearchOptions
		want string
	}{
		{"off", caption.SearchOptions{LengthPenalty: 1, MaxLength: 7}, "a dog on a dog on a"},
		// "a dog" again is blocked: a's other word, <end>, follows.
		{"bigrams", caption.SearchOptions{LengthPenalty: 1, MaxLength: 7, NoRepeatNGram: 2}, "a dog on a"},
		// "a dog on" again is blocked: dog's other word, <end>, follows.
		{"trigrams", caption.SearchOptions{LengthPenalty: 1, MaxLength: 7, NoRepeatNGram: 3}, "a dog on a dog"},
		// No word twice.
		{"unigrams", caption.SearchOptions{LengthPenalty: 1, MaxLength: 7, NoRepeatNGram: 1}, "a dog on"},
		// "a" again costs 3 nats: log 0.1 > log 0.9 − 3 ends after "on".
		{"penalty", caption.SearchOptions{LengthPenalty: 1, MaxLength: 7, RepeatPenalty: 3}, "a dog on"},
		// 0.2 nats keeps the loop: log 0.9 − 0.2 > log 0.1, log 0.6 − 0.2 > log 0.4.
		{"small penalty", caption.SearchOptions{LengthPenalty: 1, MaxLength: 7, RepeatPenalty: 0.2}, "a dog on a dog on a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			greedy, err := m.Greedy(nil, [][]float32{features}, &tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			beam1, err := m.Beam(nil, features, 1, &tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range []caption.Hypothesis{greedy[0], beam1[0]} {
				if got := strings.Join(h.Words, " "); got != tc.want {
					t.Errorf("%q, want %q", got, tc.want)
				}
				checkRepeats(t, m, features, []caption.Hypothesis{h}, tc.opts)
			}
			if math.Abs(greedy[0].Score-beam1[0].Score) > 1e-9 || math.Abs(greedy[0].Penalty-beam1[0].Penalty) > 1e-9 {
				t.Errorf("greedy score %v (penalty %v), beam 1 %v (%v)", greedy[0].Score, greedy[0].Penalty, beam1[0].Score, beam1[0].Penalty)
			}
			beam3, err := m.Beam(nil, features, 3, &tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkRepeats(t, m, features, beam3, tc.opts)
		})
	}
}

// checkRepeats checks hypotheses found with repetition options: no
// n-gram said twice under NoRepeatNGram, LogProb the model's
// (teacher-forced) log-likelihood and the sum of TokenLogProbs, Penalty
// RepeatPenalty per repeated word, and Score (LogProb − Penalty)/n^α.
func checkRepeats(t *testing.T, m *caption.Model, features []float32, hyps []caption.Hypothesis, o caption.SearchOptions) {
	t.Helper()
	for i, h := range hyps {
		if n := o.NoRepeatNGram; n > 0 {
			seen := map[string]bool{}
			for j := 0; j+n <= len(h.Tokens); j++ {
				key := strings.Join(h.Words[j:j+n], " ")
				if seen[key] {
					t.Errorf("hypothesis %d %q says %q twice", i, h.Words, key)
				}
				seen[key] = true
			}
		}
		if want := teacherForced(t, m, features, h.Tokens, h.Finished); math.Abs(h.LogProb-want) > 1e-4 {
			t.Errorf("hypothesis %d %q: LogProb %.6f, teacher-forced %.6f", i, h.Words, h.LogProb, want)
		}
		n := len(h.Tokens)
		if h.Finished {
			n++
		}
		var sum float64
		for _, lp := range h.TokenLogProbs {
			sum += float64(lp)
		}
		if len(h.TokenLogProbs) != n || math.Abs(sum-h.LogProb) > 1e-4 {
			t.Errorf("hypothesis %d %q: %d token log-probabilities summing to %v, want %d summing to LogProb %v", i, h.Words, len(h.TokenLogProbs), sum, n, h.LogProb)
		}
		repeated := 0
		for j, tok := range h.Tokens {
			if slices.Contains(h.Tokens[:j], tok) {
				repeated++
			}
		}
		if want := o.RepeatPenalty * float64(repeated); math.Abs(h.Penalty-want) > 1e-4 {
			t.Errorf("hypothesis %d %q: penalty %v, want %v for %d repeated words", i, h.Words, h.Penalty, want, repeated)
		}
		if want := (h.LogProb - h.Penalty) / math.Pow(float64(n), o.LengthPenalty); math.Abs(h.Score-want) > 1e-9 {
			t.Errorf("hypothesis %d: score %v, want (LogProb − Penalty)/n^α = %v", i, h.Score, want)
		}
	}
}

// TestRepeatInvariants searches an untrained model, whose captions
// wander and repeat, with blocking and penalties at several widths.
func TestRepeatInvariants(t *testing.T) {
	m := mustNew(t, tinyConfig(caption.Soft), 9)
	for _, o := range []caption.SearchOptions{
		{LengthPenalty: 1, MaxLength: 12, NoRepeatNGram: 2},
		{LengthPenalty: 1, MaxLength: 12, NoRepeatNGram: 3, RepeatPenalty: 0.5},
		{LengthPenalty: 0.7, MaxLength: 12, RepeatPenalty: 1.5},
	} {
		for img := range 3 {
			features := make([]float32, m.Config.Regions*m.Config.FeatureDim)
			for i := range features {
				features[i] = float32(math.Sin(float64(i*(img+1)) * 0.37))
			}
			for _, k := range []int{1, 3, 5} {
				hyps, err := m.Beam(nil, features, k, &o)
				if err != nil {
					t.Fatal(err)
				}
				checkRepeats(t, m, features, hyps, o)
			}
		}
	}
}

func TestRepeatsBigram(t *testing.T) {
	for _, tc := range []struct {
		caption string
		want    bool
	}{
		{"a man sitting on a bench on a bench", true},
		{"a man in a red shirt and a woman in a blue shirt", true},
		{"a dog runs on the grass", false},
		{"a a a", true},
		{"a a", false},
		{"", false},
	} {
		if got := caption.RepeatsBigram(strings.Fields(tc.caption)); got != tc.want {
			t.Errorf("RepeatsBigram(%q) = %v, want %v", tc.caption, got, tc.want)
		}
	}
}

func TestRepeatOptionErrors(t *testing.T) {
	m := loopModel(t)
	features := make([]float32, m.Config.Regions*m.Config.FeatureDim)
	for _, o := range []caption.SearchOptions{
		{LengthPenalty: 1, NoRepeatNGram: -1},
		{LengthPenalty: 1, RepeatPenalty: -0.5},
		{LengthPenalty: 1, RepeatPenalty: math.NaN()},
	} {
		if _, err := m.Beam(nil, features, 2, &o); err == nil || !strings.Contains(err.Error(), "Repeat") {
			t.Errorf("%+v: error %v, want one naming the option", o, err)
		}
	}
}
