package metrics

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"testing"
)

func TestCIDErDHandComputed(t *testing.T) {
	ln2, ln3, ln15 := math.Log(2), math.Log(3), math.Log(1.5)
	tests := []struct {
		name    string
		samples []Sample
		want    []float64
	}{
		{
			// N = 2: every n-gram is in one image's references, so its
			// idf is log 2 − log 1 = ln 2.
			// Image 1: candidate = reference "a b": cosine 1 for unigrams
			// and bigrams, 0 for the absent 3- and 4-grams, δ = 0:
			// 10 · (1 + 1 + 0 + 0)/4 = 5.
			// Image 2: "c" against "c d": unigram cosine
			// ln2²/(ln2 · √2·ln2) = 1/√2, no bigram in the candidate,
			// δ = 1 − 2: 10 · e^(−1/72)/√2 / 4.
			name: "idf and length penalty",
			samples: []Sample{
				captionSample("a b", "a b"),
				captionSample("c", "c d"),
			},
			want: []float64{5, 10 * math.Exp(-1.0/72) / math.Sqrt2 / 4},
		},
		{
			// N = 3; "a" is in two images' references: idf(a) =
			// ln3 − ln2 = ln1.5, every other n-gram ln3 (df 1 or 0).
			// Image 1: "a a" vs "a b": the candidate's tf-idf for "a" is
			// 2·ln1.5 but clipped to the reference's ln1.5, so the
			// unigram term is ln1.5·ln1.5 / (2·ln1.5 · √(ln1.5² + ln3²));
			// the bigram "a a" is not in the reference: 0.
			// Image 2: "a" vs "a c": ln1.5² / (ln1.5 · √(ln1.5² + ln3²)),
			// δ = −1. Image 3: nothing shared: 0.
			name: "clipping and document frequency",
			samples: []Sample{
				captionSample("a a", "a b"),
				captionSample("a", "a c"),
				captionSample("d", "e"),
			},
			want: []float64{
				10 * (ln15 / (2 * math.Hypot(ln15, ln3))) / 4,
				10 * (ln15 / math.Hypot(ln15, ln3)) * math.Exp(-1.0/72) / 4,
				0,
			},
		},
		{
			// Two references: the similarities are averaged. Candidate
			// "a b" vs "a b" (5 as above, up to the idf) and vs "b a":
			// unigram cosine 1, bigrams disjoint, δ = 0: 10 · 1/4.
			// N = 2 and all n-grams of image 1 have df 1: idf ln2.
			name: "average over references",
			samples: []Sample{
				captionSample("a b", "a b", "b a"),
				captionSample("c", "d"),
			},
			want: []float64{(10*2.0/4 + 10*1.0/4) / 2, 0},
		},
		{
			// A candidate equal to all of its references, of 4 words or
			// more, scores the maximum: 10.
			name: "maximum",
			samples: []Sample{
				captionSample("a dog runs on grass", "a dog runs on grass", "a dog runs on grass"),
				captionSample("two cats", "three cats sleep"),
			},
			want: []float64{10, 10 * (ln2 * ln2 / (ln2 * math.Sqrt2 * ln2 * math.Sqrt(3))) * math.Exp(-1.0/72) / 4},
		},
		{
			// One image: log N = 0 and every idf is 0.
			name:    "single image",
			samples: []Sample{captionSample("a dog", "a dog")},
			want:    []float64{0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			corpus, per, err := CIDErD(tt.samples)
			if err != nil {
				t.Fatal(err)
			}
			mean := 0.0
			for i := range tt.want {
				if !captionClose(per[i], tt.want[i]) {
					t.Errorf("sample %d: CIDEr-D = %.17g, want %.17g", i, per[i], tt.want[i])
				}
				mean += tt.want[i]
			}
			mean /= float64(len(tt.want))
			if !captionClose(corpus, mean) {
				t.Errorf("corpus CIDEr-D = %.17g, want the mean %.17g", corpus, mean)
			}
		})
	}
}

func TestCIDErDScorer(t *testing.T) {
	samples := []Sample{
		captionSample("a man rides a red bike", "a man riding a bike", "a person on a red bicycle"),
		captionSample("two dogs play in the snow", "two dogs playing in snow", "dogs in the snow"),
		captionSample("a girl", "a little girl smiles", "a girl"),
	}
	_, per, err := CIDErD(samples)
	if err != nil {
		t.Fatal(err)
	}
	refSets := make([][][]string, len(samples))
	for i, s := range samples {
		refSets[i] = s.Refs
	}
	scorer, err := NewCIDErD(refSets)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range samples {
		got, err := scorer.Score(s.Cand, s.Refs)
		if err != nil {
			t.Fatal(err)
		}
		if !captionClose(got, per[i]) {
			t.Errorf("sample %d: Score = %.17g, CIDErD %.17g", i, got, per[i])
		}
	}

	// Words the reference sets never saw have df 0, idf log N: with N = 2
	// a one-word candidate equal to its one-word reference has unigram
	// cosine 1 and nothing else: 10 · 1/4. The same unseen word on both
	// sides must match; different unseen words must not.
	small, err := NewCIDErD([][][]string{{{"a", "b"}}, {{"c", "d"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		cand, ref string
		want      float64
	}{
		{"zebra", "zebra", 2.5},
		{"zebra", "okapi", 0},
		{"zebra okapi", "okapi", 10 * (1 / math.Sqrt2) * math.Exp(-1.0/72) / 4},
	} {
		got, err := small.Score(captionSample(tt.cand).Cand, [][]string{captionSample(tt.ref).Cand})
		if err != nil {
			t.Fatal(err)
		}
		if !captionClose(got, tt.want) {
			t.Errorf("Score(%q, %q) = %.17g, want %.17g", tt.cand, tt.ref, got, tt.want)
		}
	}
}

// TestCIDErDScorerConcurrent scores from several goroutines at once (run
// with -race): Score only reads the scorer.
func TestCIDErDScorerConcurrent(t *testing.T) {
	refs := [][][]string{
		{captionSample("a dog runs").Cand, captionSample("a brown dog").Cand},
		{captionSample("two kids play").Cand},
	}
	s, err := NewCIDErD(refs)
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.Score(captionSample("a dog plays with kids").Cand, refs[0])
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				got, err := s.Score(captionSample("a dog plays with kids").Cand, refs[0])
				if err != nil || got != want {
					errs <- fmt.Errorf("Score = %v, %v; want %v", got, err, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestCIDErDErrors(t *testing.T) {
	if _, _, err := CIDErD(nil); !errors.Is(err, ErrNoSamples) {
		t.Errorf("CIDErD(nil) error %v, want ErrNoSamples", err)
	}
	if _, err := NewCIDErD(nil); !errors.Is(err, ErrNoSamples) {
		t.Errorf("NewCIDErD(nil) error %v, want ErrNoSamples", err)
	}
	if _, err := NewCIDErD([][][]string{{{"a"}}, {}}); !errors.Is(err, ErrNoReferences) {
		t.Errorf("NewCIDErD with an empty set: error %v, want ErrNoReferences", err)
	}
	if _, err := NewCIDErD([][][]string{{{"a"}, {}}}); !errors.Is(err, ErrEmptyReference) {
		t.Errorf("NewCIDErD with an empty reference: error %v, want ErrEmptyReference", err)
	}
	s, err := NewCIDErD([][][]string{{{"a"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Score([]string{"a"}, nil); !errors.Is(err, ErrNoReferences) {
		t.Errorf("Score without references: error %v, want ErrNoReferences", err)
	}
	if _, err := s.Score([]string{"a"}, [][]string{{}}); !errors.Is(err, ErrEmptyReference) {
		t.Errorf("Score with an empty reference: error %v, want ErrEmptyReference", err)
	}
}
