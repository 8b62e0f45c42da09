package speechmodel

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/asr"
)

// TestSettleShareMovesBoundariesToSentences shares the text of four
// readings of testdata/hello.wav, one a chunk, among the chunks: however
// the proposal is off, by up to shareRadius words at each boundary, the
// speller puts every boundary back between two readings.
func TestSettleShareMovesBoundariesToSentences(t *testing.T) {
	hello, err := Load(filepath.Join("..", "..", "testdata", "hello.wav"), nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := asr.Default()
	if err != nil {
		t.Fatal(err)
	}
	dec, err := NewLAS(m, nil).NewDecoder()
	if err != nil {
		t.Fatal(err)
	}
	const sentence = "the quick brown fox jumps over the lazy dog"
	var (
		encs  []*encodedChunk
		words []string
		want  []int
	)
	for range 4 {
		e, err := dec.Encode(hello.Samples)
		if err != nil {
			t.Fatal(err)
		}
		encs = append(encs, e.(*encodedChunk))
		words = append(words, strings.Fields(sentence)...)
		want = append(want, 9)
	}
	for _, tc := range []struct {
		name  string
		shift []int // moves the boundary after chunk i by shift[i%len] words
	}{
		{"right", []int{0}},
		{"one early", []int{-1}},
		{"one late", []int{1}},
		{"two early", []int{-2}},
		{"two late", []int{2}},
		{"mixed", []int{2, -1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proposal := slices.Clone(want)
			for i := range len(proposal) - 1 {
				d := tc.shift[i%len(tc.shift)]
				proposal[i] += d
				proposal[i+1] -= d
			}
			got, err := dec.(*lasTranscriber).settleShare(encs, words, proposal, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("settled %v into %v, want %v", proposal, got, want)
			}
		})
	}
}

// TestSnapShare moves chunk boundaries off the inside of script words.
func TestSnapShare(t *testing.T) {
	// Words as written of 1, 3, 1, 2 normalized words: cuts allowed
	// before normalized words 0, 1, 4, 5 and at the end, 7.
	cut := []bool{true, true, false, false, true, true, false, true}
	tests := []struct{ counts, want []int }{
		{[]int{1, 6}, []int{1, 6}},
		{[]int{2, 5}, []int{1, 6}},       // 2 → 1
		{[]int{3, 4}, []int{4, 3}},       // 3 → 4
		{[]int{3, 3, 1}, []int{4, 1, 2}}, // 3 → 4, 6 → 5
		{[]int{0, 7}, []int{0, 7}},
		{[]int{6, 1}, []int{5, 2}},
	}
	for _, tc := range tests {
		if got := snapShare(tc.counts, cut); !slices.Equal(got, tc.want) {
			t.Errorf("snapShare(%v) = %v, want %v", tc.counts, got, tc.want)
		}
	}
}
