package metrics

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
)

// captionGolden is one corpus of testdata/caption_golden.json with the
// scores pycocoevalcap's own scorer code gives it (caption_golden.py).
type captionGolden struct {
	Name    string `json:"name"`
	Samples []struct {
		Cand string   `json:"cand"`
		Refs []string `json:"refs"`
	} `json:"samples"`
	BLEU      [4]float64 `json:"bleu"`
	ROUGEL    float64    `json:"rouge_l"`
	ROUGELPer []float64  `json:"rouge_l_per"`
	CIDErD    float64    `json:"cider_d"`
	CIDErDPer []float64  `json:"cider_d_per"`
}

// captionClose reports whether got is within a relative 1e-12 (absolute
// 1e-15 near zero) of want: the reference sums in another order.
func captionClose(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*math.Abs(want)+1e-15
}

func TestCaptionGoldenCOCO(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "caption_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden struct{ Cases []captionGolden }
	if err := json.Unmarshal(raw, &golden); err != nil {
		t.Fatal(err)
	}
	if len(golden.Cases) == 0 {
		t.Fatal("no cases in caption_golden.json")
	}
	for _, g := range golden.Cases {
		t.Run(g.Name, func(t *testing.T) {
			samples := make([]Sample, len(g.Samples))
			for i, s := range g.Samples {
				samples[i] = Sample{ID: strconv.Itoa(i), Cand: strings.Fields(s.Cand)}
				for _, r := range s.Refs {
					samples[i].Refs = append(samples[i].Refs, strings.Fields(r))
				}
			}
			checkCaptionGolden(t, samples, g)
		})
	}
}

func checkCaptionGolden(t *testing.T, samples []Sample, g captionGolden) {
	t.Helper()
	bleu, err := BLEU(samples)
	if err != nil {
		t.Fatal(err)
	}
	for n := range bleu {
		if !captionClose(bleu[n], g.BLEU[n]) {
			t.Errorf("BLEU-%d = %.17g, pycocoevalcap %.17g", n+1, bleu[n], g.BLEU[n])
		}
	}
	rouge, rougePer, err := ROUGEL(samples)
	if err != nil {
		t.Fatal(err)
	}
	if !captionClose(rouge, g.ROUGEL) {
		t.Errorf("ROUGE-L = %.17g, pycocoevalcap %.17g", rouge, g.ROUGEL)
	}
	cider, ciderPer, err := CIDErD(samples)
	if err != nil {
		t.Fatal(err)
	}
	if !captionClose(cider, g.CIDErD) {
		t.Errorf("CIDEr-D = %.17g, pycocoevalcap %.17g", cider, g.CIDErD)
	}
	for i := range g.ROUGELPer {
		if !captionClose(rougePer[i], g.ROUGELPer[i]) {
			t.Errorf("sample %d: ROUGE-L = %.17g, pycocoevalcap %.17g", i, rougePer[i], g.ROUGELPer[i])
		}
	}
	for i := range g.CIDErDPer {
		if !captionClose(ciderPer[i], g.CIDErDPer[i]) {
			t.Errorf("sample %d: CIDEr-D = %.17g, pycocoevalcap %.17g", i, ciderPer[i], g.CIDErDPer[i])
		}
	}
}

// flickr8kCaptions reads Flickr8k's captions.txt: image name → captions in
// file order (#0 … #4).
func flickr8kCaptions(t *testing.T, dir string) map[string][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "captions.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	caps := make(map[string][]string)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, text, ok := strings.Cut(sc.Text(), "\t")
		name, _, ok2 := strings.Cut(key, "#")
		if !ok || !ok2 {
			t.Fatalf("captions.txt: malformed line %q", sc.Text())
		}
		caps[name] = append(caps[name], text)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return caps
}

// flickr8kDev reads the dev split's image names.
func flickr8kDev(t *testing.T, dir string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(dir, "dev.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(raw))
}

// cocoPunct is pycocoevalcap's list of tokens removed after PTB
// tokenization.
var cocoPunct = []string{"''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-",
	".", "?", "!", ",", ":", "-", "--", "...", ";"}

// cocoPostprocess lower-cases the tokens of an already PTB-tokenized
// caption and drops coco-caption's punctuation tokens.
func cocoPostprocess(s string) []string {
	var out []string
	for _, w := range strings.Fields(strings.ToLower(s)) {
		if !slices.Contains(cocoPunct, w) {
			out = append(out, w)
		}
	}
	return out
}

// TestCaptionGoldenFlickr8k scores the 1,000 Flickr8k dev images with
// caption #0 as the candidate and #1–#4 as references, on the file's own
// (PTB-style) tokens, against pycocoevalcap's numbers for the same corpus.
func TestCaptionGoldenFlickr8k(t *testing.T) {
	dir := shareddata.Path(t, "flickr8k")
	raw, err := os.ReadFile(filepath.Join("testdata", "caption_golden_flickr8k.json"))
	if err != nil {
		t.Fatal(err)
	}
	var g captionGolden
	var images struct{ Images int }
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &images); err != nil {
		t.Fatal(err)
	}
	caps := flickr8kCaptions(t, dir)
	dev := flickr8kDev(t, dir)
	slices.Sort(dev)
	if len(dev) != images.Images {
		t.Fatalf("dev.txt lists %d images, the golden file was made with %d", len(dev), images.Images)
	}
	samples := make([]Sample, len(dev))
	for i, name := range dev {
		c := caps[name]
		if len(c) < 2 {
			t.Fatalf("%s: %d captions", name, len(c))
		}
		samples[i] = Sample{ID: name, Cand: cocoPostprocess(c[0])}
		for _, r := range c[1:] {
			samples[i].Refs = append(samples[i].Refs, cocoPostprocess(r))
		}
	}
	checkCaptionGolden(t, samples, g)
}
