package speech

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/models/asr"
)

// TestSettleShareMovesBoundariesToSentences shares the text of four
// readings of testdata/hello.wav, each followed by 1 s of silence, among
// the chunks the segmenter cuts at three of the pauses: however the
// proposal is off, by up to shareRadius words at each boundary, the
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
	tr, err := NewTranscriber(NewLAS(m, nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	const sentence = "the quick brown fox jumps over the lazy dog"
	var (
		samples []float32
		words   []string
	)
	for range 4 {
		samples = append(samples, hello.Samples...)
		samples = append(samples, make([]float32, hello.Rate)...)
		words = append(words, strings.Fields(sentence)...)
	}
	sig := &audio.Signal{Rate: hello.Rate, Channels: 1, Samples: samples}
	chunks, err := tr.encodeChunks("four readings", sig.Stream())
	if err != nil {
		t.Fatal(err)
	}
	// The chunks hold whole readings; which ones depends on the
	// segmenter, not on the model.
	want := make([]int, len(chunks))
	for i, c := range chunks {
		for k := range 4 {
			if mid := (float64(k*len(samples)/4) + float64(len(hello.Samples))/2) / float64(hello.Rate); mid >= c.start && mid < c.end {
				want[i] += 9
			}
		}
	}
	if len(chunks) < 2 || slices.Contains(want, 0) {
		t.Fatalf("chunks %v hold %v words: want at least two, each with a reading", chunkSpans(chunks), want)
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
			encs := make([]*encodedChunk, len(chunks))
			for i, c := range chunks {
				encs[i] = c.enc.(*encodedChunk)
			}
			got, err := tr.dec.(*lasTranscriber).settleShare(encs, words, proposal, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("settled %v into %v, want %v", proposal, got, want)
			}
		})
	}
}

func chunkSpans(chunks []*alignedChunk) []string {
	var s []string
	for _, c := range chunks {
		s = append(s, fmt.Sprintf("%.2f–%.2f s", c.start, c.end))
	}
	return s
}
