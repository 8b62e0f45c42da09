package captioning

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/pipeline/captiondata"
)

// confidenceSignals are the measures a caption's confidence could be
// made of: what TestConfidenceSeparates compares.
type confidenceSignals struct {
	// meanTokenProb is the geometric mean of the caption's token
	// probabilities, <eos> included: Confidence.
	meanTokenProb float64
	// minTokenProb is the least probable token's probability.
	minTokenProb float64
	// classMax is the classifier's largest class probability.
	classMax float64
	// classCertainty is 1 − H(p)/log C, one less the classifier's
	// normalized entropy.
	classCertainty float64
}

// signals measures a caption (its token log-probabilities) and its
// image (the classifier's probabilities).
func signals(tokenLogProbs, probs []float32) confidenceSignals {
	s := confidenceSignals{meanTokenProb: confidence(tokenLogProbs), minTokenProb: 1}
	for _, lp := range tokenLogProbs {
		s.minTokenProb = min(s.minTokenProb, math.Exp(float64(lp)))
	}
	var h float64
	for _, p := range probs {
		if p > 0 {
			h -= float64(p) * math.Log(float64(p))
		}
		s.classMax = max(s.classMax, float64(p))
	}
	s.classCertainty = 1 - h/math.Log(float64(len(probs)))
	return s
}

// TestConfidenceSeparates measures how well Confidence tells Flickr8k's
// dev photos from photos unlike them: it captions the 1,000 dev images
// (../shared/data/flickr8k) and the images listed, one path a line, in
// the file $ATTEND_CONFIDENCE_OOD (docs/caption.md names the list used),
// with the default search, and reports for each signal of
// confidenceSignals and for Confidence the means and the AUROC (the
// chance that a dev photo scores above an outside one). With
// $ATTEND_CONFIDENCE_TSV it also writes every image's signals there. It
// runs only when $ATTEND_CONFIDENCE_OOD is set (minutes: the encoder and
// beam search on every image).
//
//	ATTEND_CONFIDENCE_OOD=docs/confidence-ood.txt go test -run ConfidenceSeparates -v ./pipeline/captioning
//
// fractionBelow returns the share of v under th.
func fractionBelow(v []float64, th float64) float64 {
	n := 0
	for _, x := range v {
		if x < th {
			n++
		}
	}
	return float64(n) / float64(len(v))
}

func TestConfidenceSeparates(t *testing.T) {
	list := os.Getenv("ATTEND_CONFIDENCE_OOD")
	if list == "" {
		t.Skip("set $ATTEND_CONFIDENCE_OOD to a list of non-Flickr images")
	}
	if !filepath.IsAbs(list) {
		list = filepath.Join("..", "..", list)
	}
	outside, err := readLines(list)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range outside {
		if !filepath.IsAbs(p) { // the repository's own
			outside[i] = filepath.Join("..", "..", p)
		}
	}
	encoder := defaultEncoder(t)
	dev, err := captiondata.Read(shareddata.Path(t, "flickr8k"), "dev", "")
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCaptioner(context.Background(), CaptionerOptions{Encoder: encoder})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var tsv strings.Builder
	tsv.WriteString("set\tpath\tconfidence\tmean_token_prob\tmin_token_prob\tclass_max\tclass_certainty\tcontrast\tlabel\tcaption\n")
	var near, agree [2][]float64 // the nearest training photo's cosine, the caption's consensus: dev, outside
	var contrast [2][]float64    // the encoder input's contrast: dev, outside
	measure := func(set string, paths []string) (conf []float64, sig []confidenceSignals) {
		w := worker{c: c, own: true}
		for _, path := range paths {
			img, _, err := c.LoadImage(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.encode(img); err != nil {
				t.Fatal(err)
			}
			r, err := c.describe(w.features, w.probs, c.o.Beam)
			if err != nil {
				t.Fatal(err)
			}
			s := signals(r.TokenLogProbs, w.probs)
			k := 0
			if set != "dev" {
				k = 1
			}
			contrast[k] = append(contrast[k], w.contrast)
			if c.rerank != nil {
				near[k] = append(near[k], c.rerank.Memory.Nearness(w.features))
				agree[k] = append(agree[k], *r.Alternatives[0].Consensus)
			}
			conf, sig = append(conf, r.Confidence), append(sig, s)
			if len(conf)%100 == 0 {
				t.Logf("%s: %d of %d images", set, len(conf), len(paths))
			}
			fmt.Fprintf(&tsv, "%s\t%s\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%.4f\t%s\t%s\n", set, path, r.Confidence,
				s.meanTokenProb, s.minTokenProb, s.classMax, s.classCertainty, w.contrast, r.Labels[0].Label, r.Caption)
		}
		return conf, sig
	}
	devPaths := make([]string, len(dev))
	for i, im := range dev {
		devPaths[i] = im.Path
	}
	inConf, inSig := measure("dev", devPaths)
	outConf, outSig := measure("outside", outside)
	if out := os.Getenv("ATTEND_CONFIDENCE_TSV"); out != "" {
		if err := os.WriteFile(out, []byte(tsv.String()), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	pick := func(sig []confidenceSignals, f func(confidenceSignals) float64) []float64 {
		out := make([]float64, len(sig))
		for i, s := range sig {
			out[i] = f(s)
		}
		return out
	}
	rows := []struct {
		name     string
		in, outs []float64
	}{
		{"confidence", inConf, outConf},
		{"mean token prob", pick(inSig, func(s confidenceSignals) float64 { return s.meanTokenProb }), pick(outSig, func(s confidenceSignals) float64 { return s.meanTokenProb })},
		{"min token prob", pick(inSig, func(s confidenceSignals) float64 { return s.minTokenProb }), pick(outSig, func(s confidenceSignals) float64 { return s.minTokenProb })},
		{"class max prob", pick(inSig, func(s confidenceSignals) float64 { return s.classMax }), pick(outSig, func(s confidenceSignals) float64 { return s.classMax })},
		{"class certainty", pick(inSig, func(s confidenceSignals) float64 { return s.classCertainty }), pick(outSig, func(s confidenceSignals) float64 { return s.classCertainty })},
	}
	if c.rerank != nil {
		rows = append(rows, struct {
			name     string
			in, outs []float64
		}{"nearest photo", near[0], near[1]}, struct {
			name     string
			in, outs []float64
		}{"consensus", agree[0], agree[1]})
	}
	t.Logf("%d dev images, %d outside", len(inConf), len(outConf))
	for _, r := range rows {
		t.Logf("%-16s AUROC %.3f  mean dev %.3f  mean outside %.3f", r.name, auroc(r.in, r.outs), mean(r.in), mean(r.outs))
	}
	below := func(v []float64) float64 {
		n := 0
		for _, x := range v {
			if x < LowConfidence {
				n++
			}
		}
		return float64(n) / float64(len(v))
	}
	t.Logf("below LowConfidence %.2f: %.1f %% of dev, %.1f %% of outside", LowConfidence, 100*below(inConf), 100*below(outConf))
	t.Logf("contrast under LowContrast %.2f: %.1f %% of dev (least %.3f), %.1f %% of outside", LowContrast,
		100*fractionBelow(contrast[0], LowContrast), slices.Min(contrast[0]), 100*fractionBelow(contrast[1], LowContrast))
	if c.rerank != nil {
		flagged := func(conf, nr, ct []float64) float64 {
			n := 0
			for i := range conf {
				r := Result{Confidence: conf[i], Familiarity: &nr[i]}
				if ct != nil {
					r.Contrast = &ct[i]
				}
				if r.Low() {
					n++
				}
			}
			return float64(n) / float64(len(conf))
		}
		t.Logf("flagged (confidence under %.2f or familiarity under %.2f): %.1f %% of dev, %.1f %% of outside; or contrast under %.2f too: %.1f %% and %.1f %%",
			LowConfidence, LowFamiliarity, 100*flagged(inConf, near[0], nil), 100*flagged(outConf, near[1], nil),
			LowContrast, 100*flagged(inConf, near[0], contrast[0]), 100*flagged(outConf, near[1], contrast[1]))
		if a := auroc(near[0], near[1]); a < 0.5 {
			t.Errorf("familiarity AUROC %.3f: it ranks outside photos above Flickr8k's", a)
		}
		sorted := slices.Sorted(slices.Values(near[0]))
		for _, q := range []float64{0.01, 0.03, 0.05, 0.10} {
			th := sorted[int(q*float64(len(sorted)))]
			flagged := func(conf, nr []float64) float64 {
				n := 0
				for i := range conf {
					if conf[i] < LowConfidence || nr[i] < th {
						n++
					}
				}
				return float64(n) / float64(len(conf))
			}
			t.Logf("nearest photo under %.3f (dev's %.0f %%): alone %.1f %% of outside; or low confidence: %.1f %% of dev, %.1f %% of outside",
				th, 100*q, 100*fractionBelow(near[1], th), 100*flagged(inConf, near[0]), 100*flagged(outConf, near[1]))
		}
	}
	if a := auroc(inConf, outConf); a < 0.5 {
		t.Errorf("Confidence AUROC %.3f: it ranks outside photos above Flickr8k's", a)
	}
}

// auroc is the area under the ROC curve of telling pos from neg by a
// score: the chance that a random element of pos scores above a random
// one of neg, ties counting half.
func auroc(pos, neg []float64) float64 {
	sorted := slices.Clone(neg)
	slices.Sort(sorted)
	var wins float64
	for _, p := range pos {
		lo, _ := slices.BinarySearch(sorted, p) // neg < p
		hi := lo
		for hi < len(sorted) && sorted[hi] == p {
			hi++
		}
		wins += float64(lo) + 0.5*float64(hi-lo)
	}
	return wins / float64(len(pos)*len(neg))
}

func mean(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// readLines reads the non-empty lines of a file that are not # comments.
func readLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out, sc.Err()
}

func TestAUROC(t *testing.T) {
	tests := []struct {
		name     string
		pos, neg []float64
		want     float64
	}{
		{"separated", []float64{3, 4}, []float64{1, 2}, 1},
		{"reversed", []float64{1, 2}, []float64{3, 4}, 0},
		{"ties", []float64{1, 1}, []float64{1, 1}, 0.5},
		{"mixed", []float64{1, 3}, []float64{2}, 0.5},
	}
	for _, tc := range tests {
		if got := auroc(tc.pos, tc.neg); got != tc.want {
			t.Errorf("%s: AUROC %v, want %v", tc.name, got, tc.want)
		}
	}
}
