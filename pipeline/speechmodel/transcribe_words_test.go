package speechmodel

import (
	"math"
	"testing"

	"github.com/attend-go/attend/models/asr"
)

// TestWordTimes checks how tokens placed on frames become words: spans
// from the first character's frame start to the last one's end, the
// geometric mean of the characters' probabilities, and the guards that
// keep times from going backwards.
func TestWordTimes(t *testing.T) {
	const fs = 0.06
	ln := func(p float64) float32 { return float32(math.Log(p)) }
	for _, tc := range []struct {
		name   string
		text   string
		frames []int
		logp   []float32
		want   []Word
	}{
		{"empty", "", nil, nil, []Word{}},
		{"only spaces", "  ", []int{0, 3}, []float32{0, 0}, []Word{}},
		{
			"two words", "ab cd",
			[]int{2, 4, 5, 7, 9},
			[]float32{ln(0.5), ln(0.125), ln(0.9), ln(1), ln(0.25)},
			[]Word{{Word: "ab", Start: 2 * fs, End: 5 * fs, Confidence: 0.25}, {Word: "cd", Start: 7 * fs, End: 10 * fs, Confidence: 0.5}},
		},
		{
			"spaces around and between", " a  b ",
			[]int{0, 1, 1, 2, 3, 3},
			[]float32{ln(0.1), ln(0.8), ln(0.1), ln(0.1), ln(0.4), ln(0.1)},
			[]Word{{Word: "a", Start: 1 * fs, End: 2 * fs, Confidence: 0.8}, {Word: "b", Start: 3 * fs, End: 4 * fs, Confidence: 0.4}},
		},
		{
			// Two words sharing a frame: the second starts where the
			// first ends and still lasts one frame.
			"shared frame", "a b",
			[]int{4, 4, 4},
			[]float32{0, 0, 0},
			[]Word{{Word: "a", Start: 4 * fs, End: 5 * fs, Confidence: 1}, {Word: "b", Start: 5 * fs, End: 6 * fs, Confidence: 1}},
		},
		{
			"apostrophe", "don't",
			[]int{1, 1, 2, 2, 3},
			[]float32{0, 0, 0, 0, 0},
			[]Word{{Word: "don't", Start: 1 * fs, End: 4 * fs, Confidence: 1}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := asr.DefaultVocab()
			tokens, err := v.Encode(tc.text)
			if err != nil {
				t.Fatal(err)
			}
			got := wordTimes(v, tokens, tc.frames, tc.logp, fs)
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i, w := range got {
				want := tc.want[i]
				if w.Word != want.Word || math.Abs(w.Start-want.Start) > 1e-9 || math.Abs(w.End-want.End) > 1e-9 ||
					math.Abs(w.Confidence-want.Confidence) > 1e-6 {
					t.Errorf("word %d: got %+v, want %+v", i, w, want)
				}
			}
		})
	}
}
