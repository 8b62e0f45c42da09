package captioning

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/attend-go/attend/vision"
)

// jsonKeys returns the sorted keys of the JSON object of v.
func jsonKeys(t *testing.T, v any) []string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestCaptionShapes checks the field names of each JSON shape of a
// caption, which clients read: a batch record and caption -json.
func TestCaptionShapes(t *testing.T) {
	r := &Result{
		Path: "a.jpg", Caption: "a dog", Words: []string{"a", "dog"}, Tokens: []int{4, 9},
		GridH: 1, GridW: 2, Fit: vision.CenterCrop, Attention: [][]float32{{0.25, 0.75}, {1, 0}},
		Beta: []float32{0.5}, LogProb: -1.5, Score: -0.75, Finished: true, Cached: true,
	}
	adaptive := *r
	adaptive.Sentinel = []float32{0.9, 0.1}
	encoded, contrast := *r, 0.25 // an image encoded, not cached, and not flagged
	encoded.Cached, encoded.Contrast, encoded.Confidence = false, &contrast, 0.8
	tests := []struct {
		name string
		v    any
		want []string
	}{
		{"batch record", BatchRecord{Caption: r.Brief(), Cached: true, Overlay: "a.png"},
			[]string{"cached", "caption", "confidence", "finished", "labels", "log_prob", "low_confidence", "note", "overlay", "score", "words"}},
		{"batch record, encoded, not flagged", BatchRecord{Caption: encoded.Brief()},
			[]string{"caption", "confidence", "contrast", "finished", "labels", "log_prob", "low_confidence", "score", "words"}},
		{"caption -json", r.JSON(),
			[]string{"alternatives", "attention", "beta", "caption", "confidence", "finished", "fit", "grid_h", "grid_w", "labels", "log_prob",
				"low_confidence", "note", "path", "score", "tokens", "words"}},
		{"caption -json, adaptive attention", adaptive.JSON(),
			[]string{"alternatives", "attention", "beta", "caption", "confidence", "finished", "fit", "grid_h", "grid_w", "labels", "log_prob",
				"low_confidence", "note", "path", "score", "sentinel", "tokens", "words"}},
	}
	for _, tc := range tests {
		if got := jsonKeys(t, tc.v); !slices.Equal(got, tc.want) {
			t.Errorf("%s: keys %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestConfidenceAndLabels checks a caption's confidence (the geometric
// mean of its token probabilities), its flag, its labels and their text.
func TestConfidenceAndLabels(t *testing.T) {
	probs := make([]float32, len(vision.ImageNetLabels()))
	probs[986], probs[1], probs[309] = 0.62, 0.25, 0.13 // daisy, tench, fly
	familiar, strange := 0.6, 0.2
	plain, varied := 0.01, 0.2 // contrasts
	tests := []struct {
		name        string
		logps       []float32
		probs       []float32
		familiarity *float64
		contrast    *float64
		conf        float64
		low         bool
		labels      []Label
		notes       string
	}{
		{"sure", []float32{log(0.9), log(0.8), log(0.9)}, probs, nil, nil, math.Cbrt(0.9 * 0.8 * 0.9), false,
			[]Label{{"daisy", 0.62}, {"tench", 0.25}, {"fly", 0.13}}, "labels: daisy 0.62, tench 0.25, fly 0.13\tconfidence 0.87"},
		{"sure, familiar", []float32{log(0.9), log(0.8), log(0.9)}, nil, &familiar, nil, math.Cbrt(0.9 * 0.8 * 0.9), false,
			nil, "confidence 0.87, familiarity 0.60"},
		{"sure, unfamiliar", []float32{log(0.9), log(0.8), log(0.9)}, nil, &strange, nil, math.Cbrt(0.9 * 0.8 * 0.9), true,
			nil, "confidence 0.87, familiarity 0.20 (" + LowConfidenceNote + ")"},
		{"unsure, cached", []float32{log(0.2), log(0.3)}, nil, nil, nil, math.Sqrt(0.2 * 0.3), true,
			nil, "confidence 0.24 (" + LowConfidenceNote + ")"},
		{"no words", nil, nil, nil, nil, 0, true, nil, "confidence 0.00 (" + LowConfidenceNote + ")"},
		{"sure, familiar, varied colours", []float32{log(0.9), log(0.8), log(0.9)}, nil, &familiar, &varied, math.Cbrt(0.9 * 0.8 * 0.9), false,
			nil, "confidence 0.87, familiarity 0.60"},
		{"sure, familiar, one colour", []float32{log(0.9), log(0.8), log(0.9)}, nil, &familiar, &plain, math.Cbrt(0.9 * 0.8 * 0.9), true,
			nil, "confidence 0.87, familiarity 0.60 (" + UniformNote + ")"},
		{"unsure, unfamiliar, one colour", []float32{log(0.2), log(0.3)}, nil, &strange, &plain, math.Sqrt(0.2 * 0.3), true,
			nil, "confidence 0.24, familiarity 0.20 (" + UniformNote + ")"},
	}
	for _, tc := range tests {
		r := Result{Confidence: confidence(tc.logps), Labels: topLabels(tc.probs), Familiarity: tc.familiarity, Contrast: tc.contrast}
		if math.Abs(r.Confidence-tc.conf) > 1e-6 {
			t.Errorf("%s: confidence %v, want %v", tc.name, r.Confidence, tc.conf)
		}
		if !reflect.DeepEqual(r.Labels, tc.labels) {
			t.Errorf("%s: labels %v, want %v", tc.name, r.Labels, tc.labels)
		}
		if got := r.Notes(); got != tc.notes {
			t.Errorf("%s: notes %q, want %q", tc.name, got, tc.notes)
		}
		c := r.Brief()
		if c.LowConfidence != tc.low || c.Labels == nil {
			t.Errorf("%s: low_confidence %v, labels %v; want %v and never null", tc.name, c.LowConfidence, c.Labels, tc.low)
		}
		if want := r.Note(); c.Note != want || (want == "") == tc.low {
			t.Errorf("%s: note %q in the JSON, Result.Note %q; want one when flagged (%v)", tc.name, c.Note, want, tc.low)
		}
		if (c.Contrast == nil) != (tc.contrast == nil) || c.Contrast != nil && math.Abs(float64(*c.Contrast)-*tc.contrast) > 1e-6 {
			t.Errorf("%s: contrast %v in the JSON, want %v", tc.name, c.Contrast, tc.contrast)
		}
		if (c.Familiarity == nil) != (tc.familiarity == nil) || c.Familiarity != nil && math.Abs(float64(*c.Familiarity)-*tc.familiarity) > 1e-6 {
			t.Errorf("%s: familiarity %v in the JSON, want %v", tc.name, c.Familiarity, tc.familiarity)
		}
	}
}

func log(p float64) float32 { return float32(math.Log(p)) }

// TestCaptionDetailedRoundTrip writes a detailed caption and reads it
// back: the grid per word, the fit by name, a missing gate as null.
func TestCaptionDetailedRoundTrip(t *testing.T) {
	r := &Result{
		Caption: "a dog", Words: []string{"a", "dog"}, Tokens: []int{4, 9}, GridH: 1, GridW: 2,
		Fit: vision.CenterCrop, Attention: [][]float32{{0.25001, 0.74999}, {1, 0}}, Beta: []float32{0.5},
	}
	b, err := json.Marshal(r.Detailed())
	if err != nil {
		t.Fatal(err)
	}
	var got Caption
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	if got.Details == nil {
		t.Fatalf("no details read back from %s", b)
	}
	d := got.Details
	if d.Fit != vision.CenterCrop || d.GridH != 1 || d.GridW != 2 || !slices.Equal(d.Tokens, r.Tokens) {
		t.Errorf("details %+v from %s", d, b)
	}
	if want := [][][]float32{{{0.25, 0.75}}, {{1, 0}}}; !reflect.DeepEqual(d.Attention, want) {
		t.Errorf("attention %v, want %v", d.Attention, want)
	}
	if len(d.Beta) != 2 || d.Beta[0] != 0.5 || !math.IsNaN(float64(d.Beta[1])) {
		t.Errorf("beta %v, want [0.5 NaN] (null for the word without a gate)", d.Beta)
	}
	if d.Alternatives == nil {
		t.Error("alternatives null, want []")
	}
	if d.Sentinel != nil {
		t.Errorf("sentinel %v for a model without one, want none", d.Sentinel)
	}
	r.Sentinel = []float32{0.87654}
	if err := json.Unmarshal(mustJSON(t, r.Detailed()), &got); err != nil {
		t.Fatal(err)
	}
	if s := got.Details.Sentinel; len(s) != 2 || s[0] != 0.8765 || !math.IsNaN(float64(s[1])) {
		t.Errorf("sentinel %v, want [0.8765 NaN] (rounded; null past the weights given)", s)
	}
	var brief Caption
	if err := json.Unmarshal(mustJSON(t, r.Brief()), &brief); err != nil || brief.Details != nil || brief.Caption != "a dog" {
		t.Errorf("brief caption read back as %+v (%v), want no details", brief, err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
