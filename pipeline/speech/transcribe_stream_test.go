package speech_test

import (
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// longRecording joins the test clips with pauses of 1.5 s (and a stretch
// of silence), a recording of several chunks.
func longRecording(t *testing.T, clips int) *audio.Signal {
	t.Helper()
	const rate = 16000
	var x []float32
	for i := 1; i <= clips; i++ {
		sig, err := speechmodel.Load(filepath.Join("..", "..", "testdata", "speech", fmt.Sprintf("u%02d.flac", i)), nil)
		if err != nil {
			t.Fatal(err)
		}
		x = append(append(x, sig.Samples...), make([]float32, 3*rate/2)...)
		if i == 2 {
			x = append(x, make([]float32, 4*rate)...)
		}
	}
	return &audio.Signal{Rate: rate, Channels: 1, Samples: x}
}

// TestStreamThreads: decoding the chunks of one recording on several
// workers gives the transcript of one worker, and OnChunk sees every
// chunk, in order, with the times of the transcript.
func TestStreamThreads(t *testing.T) {
	sig := longRecording(t, 6)
	transcribe := func(threads int) (*speech.Transcript, []speech.Chunk) {
		var seen []speech.Chunk
		tr := defaultTranscriber(t, &speech.TranscribeOptions{Threads: threads, OnChunk: func(c speech.Chunk) { seen = append(seen, c) }})
		got, err := tr.Stream("long", sig.Stream())
		if err != nil {
			t.Fatal(err)
		}
		got.Decode = 0
		return got, seen
	}
	one, seen := transcribe(1)
	if len(one.Chunks) < 4 {
		t.Fatalf("%d chunks; the test wants a recording of several", len(one.Chunks))
	}
	want := jsonOf(t, one)
	if got := jsonOf(t, &speech.Transcript{Path: "long", Text: one.Text, Duration: one.Duration, Chunks: seen}); got != want {
		t.Errorf("OnChunk saw\n%s\nthe transcript is\n%s", got, want)
	}
	for _, threads := range []int{2, 3} {
		got, seen := transcribe(threads)
		if g := jsonOf(t, got); g != want {
			t.Errorf("-t %d:\n%s\nwant (-t 1)\n%s", threads, g, want)
		}
		if len(seen) != len(one.Chunks) {
			t.Errorf("-t %d: OnChunk saw %d chunks, want %d", threads, len(seen), len(one.Chunks))
		}
		for i := 1; i < len(seen); i++ {
			if seen[i].Start != seen[i-1].End {
				t.Errorf("-t %d: chunk %d starts at %v, after one ending at %v: out of order", threads, i, seen[i].Start, seen[i-1].End)
			}
		}
	}
	for _, c := range one.Chunks {
		if strings.Contains(c.Text, "  ") {
			t.Errorf("chunk text %q has a run of spaces", c.Text)
		}
		for _, v := range append([]float64{c.Start, c.End}, wordTimesOf(c)...) {
			if ms := v * 1000; math.Abs(ms-math.Round(ms)) > 1e-6 {
				t.Errorf("time %v is not rounded to milliseconds", v)
			}
		}
	}
}

func wordTimesOf(c speech.Chunk) []float64 {
	var out []float64
	for _, w := range c.Words {
		out = append(out, w.Start, w.End)
	}
	return out
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
