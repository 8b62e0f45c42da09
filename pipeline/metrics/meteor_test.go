package metrics

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// meteorFormula is METEOR for weighted matches m (exact + w·stem),
// lengths c and r, chunks ch over n matched words, with parameters p:
// Fmean·(1 − γ·(ch/n)^β).
func meteorFormula(p meteorParams, m, c, r, ch, n float64) float64 {
	P, R := m/c, m/r
	fmean := P * R / (p.alpha*P + (1-p.alpha)*R)
	return fmean * (1 - p.gamma*math.Pow(ch/n, p.beta))
}

func TestMETEORHandComputed(t *testing.T) {
	p2005 := meteorParams{alpha: 0.9, beta: 3, gamma: 0.5, stemWeight: 1, stems: true}
	tests := []struct {
		name   string
		opts   *METEOROptions
		sample Sample
		stats  meteorStats
		want   float64
	}{
		{
			// Every word matched in one chunk: the jar sets the
			// fragmentation to 0, so METEOR = Fmean = 1.
			name:   "identical",
			sample: captionSample("the cat sat on the mat", "the cat sat on the mat"),
			stats:  meteorStats{candLen: 6, refLen: 6, exact: 6, chunks: 1},
			want:   1,
		},
		{
			// Banerjee and Lavie's example: 6 matches, P = 6/6, R = 6/7;
			// the two "the" can pair up two ways and the search keeps the
			// one with 2 chunks ("the president" + "spoke to the
			// audience"): frag = 2/6.
			name:   "insertion splits a chunk",
			sample: captionSample("the president spoke to the audience", "the president then spoke to the audience"),
			stats:  meteorStats{candLen: 6, refLen: 7, exact: 6, chunks: 2},
			want:   meteorFormula(meteorDefaults, 6, 6, 7, 2, 6),
		},
		{
			name:   "insertion, 2005 parameters",
			opts:   &METEOR2005,
			sample: captionSample("the president spoke to the audience", "the president then spoke to the audience"),
			stats:  meteorStats{candLen: 6, refLen: 7, exact: 6, chunks: 2},
			// Fmean = 10PR/(R+9P) = 0.869565…, penalty 0.5·(1/3)³.
			want: 10 * (6.0 / 7) / (6.0/7 + 9) * (1 - 0.5*math.Pow(2.0/6, 3)),
		},
		{
			// Porter stems: dog/dogs and running/run match with weight
			// 0.6: P = R = 0.6·2/3 = 0.4; one chunk of 2 matched words.
			name:   "stem matches",
			sample: captionSample("a dog running", "the dogs run"),
			stats:  meteorStats{candLen: 3, refLen: 3, stem: 2, chunks: 1},
			want:   meteorFormula(meteorDefaults, 0.6*2, 3, 3, 1, 2),
		},
		{
			name:   "stem matches earn full credit in 2005",
			opts:   &METEOR2005,
			sample: captionSample("a dog running", "the dogs run"),
			stats:  meteorStats{candLen: 3, refLen: 3, stem: 2, chunks: 1},
			want:   meteorFormula(p2005, 2, 3, 3, 1, 2),
		},
		{
			name:   "exact only",
			opts:   &METEOROptions{ExactOnly: true},
			sample: captionSample("a dog running", "the dogs run"),
			stats:  meteorStats{candLen: 3, refLen: 3},
			want:   0,
		},
		{
			// The jar's quirk, reproduced: "running" could stem-match
			// either candidate word, so no match is fixed before the
			// search; a stem match adds 0 to the search's (truncated)
			// match total while it opens a chunk, so the path that skips
			// it wins. METEOR is 0.
			name:   "ambiguous stem match dropped as by the jar",
			sample: captionSample("runs run", "running"),
			stats:  meteorStats{candLen: 2, refLen: 1},
			want:   0,
		},
		{
			// Crossing matches: "b a" against "a b" can only match both
			// words in two chunks: P = R = 1, frag = 2/2, penalty γ.
			name:   "swapped words",
			sample: captionSample("b a", "a b"),
			stats:  meteorStats{candLen: 2, refLen: 2, exact: 2, chunks: 2},
			want:   1 - 0.6,
		},
		{
			name:   "empty candidate",
			sample: captionSample("", "a b"),
			stats:  meteorStats{refLen: 2},
			want:   0,
		},
		{
			// The best reference counts, not the first or the mean.
			name:   "best reference",
			sample: captionSample("a b c", "x y z", "a b c", "a b"),
			stats:  meteorStats{candLen: 3, refLen: 3, exact: 3, chunks: 1},
			want:   1,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.opts.params()
			if err != nil {
				t.Fatal(err)
			}
			c, err := newCaptionCorpus([]Sample{tt.sample})
			if err != nil {
				t.Fatal(err)
			}
			best, per := c.meteorBest(p)
			if best[0] != tt.stats {
				t.Errorf("stats %+v, want %+v", best[0], tt.stats)
			}
			if !captionClose(per[0], tt.want) {
				t.Errorf("METEOR = %.17g, want %.17g", per[0], tt.want)
			}
			corpus, _, err := METEOR([]Sample{tt.sample}, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !captionClose(corpus, tt.want) {
				t.Errorf("corpus METEOR of one sample = %.17g, want %.17g", corpus, tt.want)
			}
		})
	}
}

// TestMETEORCorpusAggregation checks that the corpus score applies the
// formula to summed statistics, as the jar's EVAL does, and leaves out
// the chunks of perfectly matched samples.
func TestMETEORCorpusAggregation(t *testing.T) {
	samples := []Sample{
		captionSample("a b", "a b"), // perfect: 2 matches, its chunk not summed
		captionSample("x a", "a y"), // 1 match, 1 chunk: P = R = 1/2, frag 1
	}
	corpus, per, err := METEOR(samples, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantPer := []float64{1, meteorFormula(meteorDefaults, 1, 2, 2, 1, 1)}
	for i := range per {
		if !captionClose(per[i], wantPer[i]) {
			t.Errorf("sample %d: METEOR %.17g, want %.17g", i, per[i], wantPer[i])
		}
	}
	// Sums: lengths 4 and 4, 3 matches, 1 chunk: P = R = 3/4,
	// frag = 1/3. The mean of the sample scores would be 0.6.
	want := meteorFormula(meteorDefaults, 3, 4, 4, 1, 3)
	if !captionClose(corpus, want) {
		t.Errorf("corpus METEOR %.17g, want %.17g (not the mean %.17g)", corpus, want, (per[0]+per[1])/2)
	}
}

func TestMETEOROptions(t *testing.T) {
	bad := []METEOROptions{
		{Alpha: 1.5}, {Alpha: -0.1}, {Alpha: math.NaN()}, {Beta: -1}, {Beta: math.Inf(1)},
		{Gamma: 2}, {StemWeight: -0.5}, {StemWeight: 1.01},
	}
	s := []Sample{captionSample("a", "a")}
	for _, o := range bad {
		if _, _, err := METEOR(s, &o); !errors.Is(err, ErrMETEOROptions) {
			t.Errorf("METEOR with %+v: error %v, want ErrMETEOROptions", o, err)
		}
	}
	p, err := (&METEOROptions{Alpha: 0.5}).params()
	if err != nil {
		t.Fatal(err)
	}
	if want := (meteorParams{alpha: 0.5, beta: 0.2, gamma: 0.6, stemWeight: 0.6, stems: true}); p != want {
		t.Errorf("zero fields: params %+v, want %+v", p, want)
	}
	if _, _, err := METEOR(nil, nil); !errors.Is(err, ErrNoSamples) {
		t.Errorf("METEOR(nil) error %v, want ErrNoSamples", err)
	}
}

func FuzzMETEORAlign(f *testing.F) {
	f.Add("the president spoke to the audience", "the president then spoke to the audience")
	f.Add("runs run", "running")
	f.Add("a a a b b", "b a b a a")
	f.Add("", "a")
	f.Add("dogs dog dog", "dog dogs")
	f.Fuzz(func(t *testing.T, cand, ref string) {
		// Words from a 6-word vocabulary with shared stems, so that
		// matches are ambiguous everywhere.
		vocab := []string{"dog", "dogs", "run", "running", "a", "the"}
		words := func(s string) []string {
			var out []string
			for i := 0; i < len(s) && i < 60; i++ {
				out = append(out, vocab[int(s[i])%len(vocab)])
			}
			return out
		}
		c, r := words(cand), words(ref)
		if len(r) == 0 {
			return
		}
		corpus, err := newCaptionCorpus([]Sample{{Cand: c, Refs: [][]string{r}}})
		if err != nil {
			t.Fatal(err)
		}
		best, per := corpus.meteorBest(meteorDefaults)
		s, score := best[0], per[0]
		m := s.exact + s.stem
		if s.candLen != len(c) || s.refLen != len(r) || m > min(len(c), len(r)) || s.exact < 0 || s.stem < 0 {
			t.Fatalf("%q vs %q: stats %+v", c, r, s)
		}
		if (m == 0) != (s.chunks == 0) || s.chunks > m {
			t.Fatalf("%q vs %q: %d matches in %d chunks", c, r, m, s.chunks)
		}
		if math.IsNaN(score) || score < 0 || score > 1 {
			t.Fatalf("%q vs %q: METEOR %v", c, r, score)
		}
		if strings.Join(c, " ") == strings.Join(r, " ") && score != 1 {
			t.Fatalf("%q vs itself: METEOR %v, want 1", c, score)
		}
	})
}
