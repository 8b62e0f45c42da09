package metrics

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// The expected METEOR statistics and scores in
// testdata/caption_meteor_golden.json and caption_meteor_flickr8k.json
// come from Meteor 1.5's own alignment and scoring code (Aligner.align,
// resolve and getCountAndChunks, PartialAlignment, the exact and stem
// matchers, MeteorScorer.computeMetrics and MeteorStats.addStats),
// transcribed unchanged into a standalone Java program for the exact and
// stem modules, with no function words and with the stems of porterStem
// (the jar's Snowball stemmer is the one documented difference). That
// program is not part of this repository (Meteor is LGPL); the corpora
// are random sentences over small, inflection-rich vocabularies, so that
// repeated words make the alignment ambiguous and long sentences make the
// beam (40) cut paths.

// meteorGolden is one corpus of caption_meteor_golden.json.
type meteorGolden struct {
	Name    string `json:"name"`
	Samples []struct {
		Cand   string   `json:"cand"`
		Refs   []string `json:"refs"`
		Stats  [5]int   `json:"stats"` // candidate and reference length, exact, stem, chunks
		METEOR float64  `json:"meteor"`
	} `json:"samples"`
	METEOR float64 `json:"meteor"`
}

func TestCaptionMETEORGoldenJar(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "caption_meteor_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden struct{ Cases []meteorGolden }
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) == 0 {
		t.Fatal("no cases in caption_meteor_golden.json")
	}
	for _, g := range golden.Cases {
		t.Run(g.Name, func(t *testing.T) {
			samples := make([]Sample, len(g.Samples))
			for i, s := range g.Samples {
				samples[i].Cand = strings.Fields(s.Cand)
				for _, r := range s.Refs {
					samples[i].Refs = append(samples[i].Refs, strings.Fields(r))
				}
			}
			c, err := newCaptionCorpus(samples)
			if err != nil {
				t.Fatal(err)
			}
			best, per := c.meteorBest(meteorDefaults)
			for i, s := range g.Samples {
				got := [5]int{best[i].candLen, best[i].refLen, best[i].exact, best[i].stem, best[i].chunks}
				if got != s.Stats {
					t.Errorf("sample %d (%q vs %q): stats %v, jar %v", i, s.Cand, s.Refs, got, s.Stats)
				}
				if !captionClose(per[i], s.METEOR) {
					t.Errorf("sample %d: METEOR %.17g, jar %.17g", i, per[i], s.METEOR)
				}
			}
			corpus, _, err := METEOR(samples, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !captionClose(corpus, g.METEOR) {
				t.Errorf("corpus METEOR %.17g, jar %.17g", corpus, g.METEOR)
			}
		})
	}
}

// TestCaptionMETEORGoldenFlickr8k scores the Flickr8k dev images as
// TestCaptionGoldenFlickr8k does (caption #0 against #1–#4) and compares
// with the jar code's corpus score and summed statistics.
func TestCaptionMETEORGoldenFlickr8k(t *testing.T) {
	dir := shareddata.Path(t, "flickr8k")
	raw, err := os.ReadFile(filepath.Join("testdata", "caption_meteor_flickr8k.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Images     int     `json:"images"`
		METEOR     float64 `json:"meteor"`
		MeanSample float64 `json:"mean_sample_meteor"`
		SumStats   [5]int  `json:"sum_stats"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	caps := flickr8kCaptions(t, dir)
	dev := flickr8kDev(t, dir)
	slices.Sort(dev)
	if len(dev) != g.Images {
		t.Fatalf("dev.txt lists %d images, the golden file was made with %d", len(dev), g.Images)
	}
	samples := make([]Sample, len(dev))
	for i, name := range dev {
		c := caps[name]
		samples[i] = Sample{ID: name, Cand: cocoPostprocess(c[0])}
		for _, r := range c[1:] {
			samples[i].Refs = append(samples[i].Refs, cocoPostprocess(r))
		}
	}
	c, err := newCaptionCorpus(samples)
	if err != nil {
		t.Fatal(err)
	}
	best, per := c.meteorBest(meteorDefaults)
	var sum [5]int
	mean := 0.0
	for i, s := range best {
		for k, v := range [5]int{s.candLen, s.refLen, s.exact, s.stem, s.chunks} {
			sum[k] += v
		}
		mean += per[i]
	}
	mean /= float64(len(per))
	if sum != g.SumStats {
		t.Errorf("summed stats (lengths, exact, stem, chunks) %v, jar %v", sum, g.SumStats)
	}
	if math.Abs(mean-g.MeanSample) > 1e-12 {
		t.Errorf("mean sample METEOR %.17g, jar %.17g", mean, g.MeanSample)
	}
	corpus, _ := c.meteorWith(meteorDefaults)
	if !captionClose(corpus, g.METEOR) {
		t.Errorf("corpus METEOR %.17g, jar %.17g", corpus, g.METEOR)
	}
}
