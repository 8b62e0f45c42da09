package whisper

import (
	"slices"
	"testing"
)

func TestSeekClips(t *testing.T) {
	for _, tc := range []struct {
		name string
		ts   []float64
		want [][2]int
	}{
		{"none: everything", nil, [][2]int{{0, 4000}}},
		{"open end", []float64{5}, [][2]int{{500, 4000}}},
		{"two clips", []float64{1, 2, 10}, [][2]int{{100, 200}, {1000, 4000}}},
		{"end past the audio", []float64{0, 100}, [][2]int{{0, 4000}}},
		{"rounding halves to even", []float64{0.125, 0.135}, [][2]int{{12, 14}}},
	} {
		got, err := seekClips(tc.ts, 4000)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v %v, want %v", tc.name, got, err, tc.want)
		}
	}
	if _, err := seekClips([]float64{-1}, 4000); err == nil {
		t.Error("a negative clip timestamp: no error")
	}
}

func TestTranscribeClips(t *testing.T) {
	net := planNet(map[int][]int{0: {ts(0), 2, ts(100)}, 4000: {ts(0), 6, ts(50)}}, nil)
	mel, frames := rampMel(6000)
	opts := DefaultTranscribeOptions()
	opts.ClipTimestamps = []float64{0, 5, 40}
	res, err := Transcribe(net, fakeTokenizer{}, mel, frames, opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 0–5 s is one 500-frame window; 40 s to the end another.
	if len(res.Segments) != 2 || res.Segments[0].Seek != 0 || res.Segments[0].End != 2 ||
		res.Segments[1].Seek != 4000 || res.Segments[1].Start != 40 || res.Segments[1].End != 41 {
		t.Errorf("segments %+v", res.Segments)
	}
	if len(net.prompts) != 2 {
		t.Errorf("%d windows decoded, want 2", len(net.prompts))
	}
}

func TestTranscribeCarriesInitialPrompt(t *testing.T) {
	repetitive := []int{ts(0)}
	for range 150 {
		repetitive = append(repetitive, 2)
	}
	net := planNet(map[int][]int{0: repetitive, 3000: {ts(0), 6, ts(100)}}, nil)
	mel, frames := rampMel(6000)
	opts := DefaultTranscribeOptions()
	opts.InitialPrompt = "w7"
	opts.CarryInitialPrompt = true
	if _, err := Transcribe(net, fakeTokenizer{}, mel, frames, opts, newRand(1)); err != nil {
		t.Fatal(err)
	}
	// After the hot fallback the previous text is dropped, the initial
	// prompt kept.
	if p := net.prompts[6]; !slices.Equal(p, []int{fSOTPrev, 7, fSOT}) {
		t.Errorf("initial tokens after a prompt reset %v, want [SOTPrev 7 SOT]", p)
	}
}

func TestSkipHallucinations(t *testing.T) {
	// Three improbable, 0.1 s words score 3 × (1 + 0.033·15): anomalous.
	odd := func(start float64) Segment {
		return Segment{Start: start, End: start + 0.3, Text: " a b c", Words: []Word{
			{" a", start, start + 0.1, 0.1}, {" b", start + 0.1, start + 0.2, 0.1}, {" c", start + 0.2, start + 0.3, 0.1}}}
	}
	// Two probable half-second words: not anomalous.
	fine := func(start float64) Segment {
		return Segment{Start: start, End: start + 1, Text: " d e", Words: []Word{
			{" d", start, start + 0.5, 0.9}, {" e", start + 0.5, start + 1, 0.9}}}
	}
	for _, tc := range []struct {
		name     string
		content  int
		segs     []Segment
		single   bool
		wantSeek int
		wantKeep int
		wantSkip bool
	}{
		{"leading silence before a hallucination: skip to it", 3000, []Segment{odd(5)}, false, 500, 0, true},
		{"hallucination after speech, silence around: cut there", 3000, []Segment{fine(0), odd(10)}, false, 1000, 1, false},
		{"hallucination at the end of the audio: done", 1050, []Segment{fine(0), odd(10)}, false, 1050, 1, false},
		{"speech only, long silence after: seek to the last word", 3000, []Segment{fine(0), fine(3)}, false, 400, 2, false},
		{"speech only, ending in a single timestamp: seek untouched", 3000, []Segment{fine(0), fine(3)}, true, 3000, 2, false},
	} {
		tr := &transcription{content: tc.content, seek: 3000}
		kept, skip := tr.skipHallucinations(slices.Clone(tc.segs), 2, 0, 3000, 0, 30, 30, tc.single)
		if tr.seek != tc.wantSeek || len(kept) != tc.wantKeep || skip != tc.wantSkip {
			t.Errorf("%s: seek %d, kept %d, skip %v; want %d, %d, %v", tc.name, tr.seek, len(kept), skip, tc.wantSeek, tc.wantKeep, tc.wantSkip)
		}
	}
}
