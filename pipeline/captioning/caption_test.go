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
	tests := []struct {
		name string
		v    any
		want []string
	}{
		{"batch record", BatchRecord{Caption: r.Brief(), Cached: true, Overlay: "a.png"},
			[]string{"cached", "caption", "finished", "log_prob", "overlay", "score", "words"}},
		{"caption -json", r.JSON(),
			[]string{"alternatives", "attention", "beta", "caption", "finished", "fit", "grid_h", "grid_w", "log_prob", "path", "score", "tokens", "words"}},
		{"caption -json, adaptive attention", adaptive.JSON(),
			[]string{"alternatives", "attention", "beta", "caption", "finished", "fit", "grid_h", "grid_w", "log_prob", "path", "score", "sentinel", "tokens", "words"}},
	}
	for _, tc := range tests {
		if got := jsonKeys(t, tc.v); !slices.Equal(got, tc.want) {
			t.Errorf("%s: keys %q, want %q", tc.name, got, tc.want)
		}
	}
}

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
