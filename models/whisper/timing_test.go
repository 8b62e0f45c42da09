package whisper

import (
	"math"
	"slices"
	"testing"
)

func TestMedianFilter(t *testing.T) {
	for _, tc := range []struct {
		name        string
		row         []float32
		width       int
		want        []float32
		description string
	}{
		// reflect-padded [5 1 5 2 8 3 8]
		{"width 3", []float32{1, 5, 2, 8, 3}, 3, []float32{5, 2, 5, 3, 8}, ""},
		// reflect-padded [8 2 5 | 1 5 2 8 3 | 8 2 5]
		{"width 7", []float32{1, 5, 2, 8, 3}, 7, []float32{5, 3, 5, 3, 5}, ""},
		{"too short to pad", []float32{1, 5, 2}, 7, []float32{1, 5, 2}, ""},
	} {
		x := append(slices.Clone(tc.row), tc.row...) // two rows
		medianFilter(x, 2, len(tc.row), tc.width)
		if !slices.Equal(x[:len(tc.row)], tc.want) || !slices.Equal(x[len(tc.row):], tc.want) {
			t.Errorf("%s: %v, want %v on both rows", tc.name, x, tc.want)
		}
	}
}

func TestDTW(t *testing.T) {
	for _, tc := range []struct {
		name       string
		x          []float32
		n, m       int
		rows, cols []int
	}{
		// cost: (1,1)=0 diag, (2,1)=1 down, (1,2)=1 right, (2,2)=0 diag,
		// (1,3)=2, (2,3): right (0) is cheapest.
		{"cheap diagonal", []float32{0, 1, 1, 1, 0, 1}, 2, 3, []int{0, 1, 1}, []int{0, 1, 2}},
		// All ties at (2,2): the right step wins, then (2,1) came down.
		{"ties", []float32{0, 0, 0, 0}, 2, 2, []int{0, 1, 1}, []int{0, 0, 1}},
		{"one row", []float32{3, 1, 2}, 1, 3, []int{0, 0, 0}, []int{0, 1, 2}},
		{"one column", []float32{3, 1, 2}, 3, 1, []int{0, 1, 2}, []int{0, 0, 0}},
	} {
		rows, cols := dtw(tc.x, tc.n, tc.m)
		if !slices.Equal(rows, tc.rows) || !slices.Equal(cols, tc.cols) {
			t.Errorf("%s: path rows %v cols %v, want %v %v", tc.name, rows, cols, tc.rows, tc.cols)
		}
	}
}

func TestMergePunctuations(t *testing.T) {
	al := []wordTiming{
		{word: " \"", tokens: []int{1}},
		{word: " Hello", tokens: []int{2}},
		{word: ",", tokens: []int{3}},
		{word: " world", tokens: []int{4}},
		{word: "!", tokens: []int{5}},
		{word: "\"", tokens: []int{6}},
	}
	mergePunctuations(al, DefaultPrependPunctuations, DefaultAppendPunctuations)
	want := []struct {
		word   string
		tokens []int
	}{
		{"", nil}, {" \" Hello,", []int{1, 2, 3}}, {"", nil}, {" world!\"", []int{4, 5, 6}}, {"", nil}, {"", nil},
	}
	for i, w := range want {
		if al[i].word != w.word || !slices.Equal(al[i].tokens, w.tokens) {
			t.Errorf("word %d = %q %v, want %q %v", i, al[i].word, al[i].tokens, w.word, w.tokens)
		}
	}
}

// plateauNet's cross-attention puts a plateau of 10 frames on each
// alignment row: the row of <|notimestamps|> (position 1 after the single
// SOT) on frames 0–9, the first text token's on 10–19, and so on.
func plateauNet() *fakeNet {
	net := newFakeNet(func(_ float32, tokens []int) []float32 { return peaked(0) })
	net.qk = func(pos, frame int) float32 {
		r := pos - 1
		if r >= 0 && frame >= 10*r && frame < 10*r+10 {
			return 20
		}
		return 0
	}
	return net
}

func TestFindAlignmentFollowsAttention(t *testing.T) {
	net := plateauNet()
	// Text " w2 w3." and then " w4": words " w2", " w3.", " w4" (the "."
	// joins the preceding word in the fake tokenizer).
	text := []int{2, 3, 1, 4}
	words, err := findAlignment(net, fakeTokenizer{}, &AudioFeatures{Data: []float32{0}}, []int{fSOT}, text, 100, DefaultAlignmentHeads(net.dims), "en")
	if err != nil {
		t.Fatal(err)
	}
	// Rows 0…4 are reached at frames 0, 10, 20, 30, 40: words start at
	// their first token's row, end at the next word's.
	want := []wordTiming{
		{word: " w2", tokens: []int{2}, start: 0, end: 0.2},
		{word: " w3.", tokens: []int{3, 1}, start: 0.2, end: 0.6},
		{word: " w4", tokens: []int{4}, start: 0.6, end: 0.8},
	}
	if len(words) != len(want) {
		t.Fatalf("%d words, want %d: %+v", len(words), len(want), words)
	}
	for i, w := range want {
		g := words[i]
		if g.word != w.word || !slices.Equal(g.tokens, w.tokens) || g.start != w.start || g.end != w.end {
			t.Errorf("word %d = %+v, want %+v", i, g, w)
		}
		// Uniform logits over the text vocabulary (< EOT).
		if math.Abs(g.probability-0.1) > 1e-9 {
			t.Errorf("word %d probability %v, want 0.1", i, g.probability)
		}
	}
}

func TestAddWordTimestampsAdjustsSegments(t *testing.T) {
	net := plateauNet()
	segs := []Segment{
		{Seek: 100, Start: 1.0, End: 1.3, Tokens: []int{fTB, 2, 3, fTB + 15}},
		{Seek: 100, Start: 1.3, End: 5.0, Tokens: []int{fTB + 15, 1, 4, fTB + 200}},
	}
	wo := WordOptions{PrependPunctuations: DefaultPrependPunctuations, AppendPunctuations: DefaultAppendPunctuations}
	if err := addWordTimestamps(segs, net, fakeTokenizer{}, &AudioFeatures{Data: []float32{0}}, []int{fSOT}, "en", 3000, wo, 0); err != nil {
		t.Fatal(err)
	}
	// Alignment (the window starts at 1.0 s): " w2" 0–0.2, " w3." 0.2–0.6,
	// " w4" 0.6–0.8; median duration 0.2. Segment 0's two text tokens are
	// " w2" and the first of " w3." — a word goes to the segment where it
	// starts — and segment 1 keeps " w4".
	first := []Word{{Word: " w2", Start: 1.0, End: 1.2, Probability: 0.1}, {Word: " w3.", Start: 1.2, End: 1.6, Probability: 0.1}}
	if !sameWords(segs[0].Words, first) {
		t.Errorf("segment 0 words %+v, want %+v", segs[0].Words, first)
	}
	second := []Word{{Word: " w4", Start: 1.6, End: 1.8, Probability: 0.1}}
	if !sameWords(segs[1].Words, second) {
		t.Errorf("segment 1 words %+v, want %+v", segs[1].Words, second)
	}
	// Segments take their words' spans (none is too long to prefer the
	// segment's own timestamps).
	if segs[0].Start != 1.0 || segs[0].End != 1.6 || segs[1].Start != 1.6 || segs[1].End != 1.8 {
		t.Errorf("segment spans %v–%v, %v–%v; want 1–1.6, 1.6–1.8", segs[0].Start, segs[0].End, segs[1].Start, segs[1].End)
	}
}

func TestAlignmentHeads(t *testing.T) {
	h, ok := AlignmentHeads("tiny.en")
	if !ok || len(h) != 8 || h[0] != [2]int{1, 0} || h[7] != [2]int{3, 4} {
		t.Errorf("tiny.en heads %v %v", h, ok)
	}
	if _, ok := AlignmentHeads("nonesuch"); ok {
		t.Error("unknown model has heads")
	}
	d := Dims{NTextLayer: 4, NTextHead: 2}
	if got, want := DefaultAlignmentHeads(d), [][2]int{{2, 0}, {2, 1}, {3, 0}, {3, 1}}; !slices.Equal(got, want) {
		t.Errorf("default heads %v, want %v", got, want)
	}
}

func TestNumpyRounding(t *testing.T) {
	for _, tc := range []struct{ x, want float64 }{{0.125, 0.12}, {0.135, 0.14}, {26.080000000000002, 26.08}, {1.005, 1.0}} {
		if got := npRound2(tc.x); got != tc.want {
			t.Errorf("npRound2(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
	if got := npMedian([]float64{3, 1, 2, 10}); got != 2.5 {
		t.Errorf("median %v", got)
	}
}

// sameWords compares words exactly but for probabilities (within 1e-9).
func sameWords(a, b []Word) bool {
	return slices.EqualFunc(a, b, func(x, y Word) bool {
		return x.Word == y.Word && x.Start == y.Start && x.End == y.End && math.Abs(x.Probability-y.Probability) <= 1e-9
	})
}
