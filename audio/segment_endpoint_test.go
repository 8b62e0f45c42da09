package audio

import (
	"errors"
	"io"
	"testing"
	"time"
)

// feedLive feeds x to a Segmenter with opts in pieces of piece samples,
// as a live source, and returns its segments and, for each, how many
// samples had arrived when it was returned (len(x) for those returned
// after the end of the stream), and how many speech segments Tentative
// had announced (the same bounds, before they were returned).
func feedLive(t *testing.T, x []float32, opts SegmentOptions, piece int) (segs []Segment, at []int, announced int) {
	t.Helper()
	src := &liveStream{}
	sg, err := NewSegmenter(src, &opts)
	if err != nil {
		t.Fatal(err)
	}
	arrived := 0
	var tentative [2]int
	for {
		s, err := sg.Next()
		switch {
		case errors.Is(err, ErrPending):
			if start, end, ok := sg.Tentative(); ok {
				tentative = [2]int{start, end}
			}
			if arrived == len(x) {
				src.closed = true
				continue
			}
			n := min(piece, len(x)-arrived)
			src.buf = append(src.buf, x[arrived:arrived+n]...)
			arrived += n
			continue
		case err == io.EOF:
			return segs, at, announced
		case err != nil:
			t.Fatal(err)
		}
		if len(segs) > 0 && s.Start != segs[len(segs)-1].End || len(segs) == 0 && s.Start != 0 || s.End <= s.Start {
			t.Fatalf("piece %d: segment [%d, %d) does not follow the last one", piece, s.Start, s.End)
		}
		if !s.NoSpeech && tentative == [2]int{s.Start, s.End} {
			announced++
		}
		segs, at = append(segs, s), append(at, arrived)
	}
}

// TestSegmenterLiveEnd: with the live endpointer, utterances separated by
// pauses long enough to end a segment over the whole recording are cut
// where they are cut over it, each returned once EndSilence of
// non-speech has followed its speech (EndSilence − SpeechPad of audio
// after the cut, plus one piece and one analysis window), far sooner than
// the decided cut's 1.5 s, and announced before by Tentative; a stream
// of silence gives no speech segment.
func TestSegmenterLiveEnd(t *testing.T) {
	hello := readHello(t)
	var x []float32
	x = append(x, make([]float32, vadRate/2)...)
	for i := range 4 {
		x = append(x, hello...)
		x = append(x, make([]float32, 8*vadRate/10+i*vadRate/2)...)
	}
	want := speechOf(segmentAll(t, x, SegmentOptions{}))
	for _, end := range []time.Duration{200 * time.Millisecond, 400 * time.Millisecond} {
		for _, piece := range []int{320, 1600} {
			segs, at, announced := feedLive(t, x, SegmentOptions{VAD: &VADOptions{}, EndSilence: end}, piece)
			if last := segs[len(segs)-1].End; last != len(x) {
				t.Fatalf("end %v piece %d: segments cover [0, %d), want [0, %d)", end, piece, last, len(x))
			}
			var got []Segment
			for i, s := range segs {
				if s.NoSpeech {
					continue
				}
				got = append(got, s)
				late := durationSamples(end-200*time.Millisecond, vadRate) + piece + vadWindow
				if at[i] < len(x) && at[i]-s.End > late {
					t.Errorf("end %v piece %d: segment ending at %v returned %v later, want at most %v", end, piece,
						s.EndTime(), samplesToDuration(at[i]-s.End, vadRate), samplesToDuration(late, vadRate))
				}
			}
			got = speechOf(got)
			// The last ends with the stream (Close), unannounced; with
			// EndSilence at the speech pad, the cut comes as soon as its
			// samples do.
			if end > 200*time.Millisecond && announced < len(got)-1 {
				t.Errorf("end %v piece %d: Tentative announced %d of %d speech segments", end, piece, announced, len(got))
			}
			if len(got) != len(want) {
				t.Fatalf("end %v piece %d: %d speech segments %v, want %d %v", end, piece, len(got), got, len(want), want)
			}
			for i := range got {
				if got[i].Start != want[i].Start || got[i].End != want[i].End {
					t.Errorf("end %v piece %d: segment %d is [%d, %d), want [%d, %d)", end, piece, i,
						got[i].Start, got[i].End, want[i].Start, want[i].End)
				}
			}
		}
	}
	for _, quiet := range [][]float32{make([]float32, 3*vadRate)} {
		segs, _, _ := feedLive(t, quiet, SegmentOptions{VAD: &VADOptions{}, EndSilence: 400 * time.Millisecond}, 1600)
		if s := speechOf(segs); len(s) > 0 {
			t.Errorf("silence: speech segments %v", s)
		}
	}
	if _, err := NewSegmenter(&liveStream{}, &SegmentOptions{VAD: &VADOptions{}, EndSilence: 100 * time.Millisecond}); err == nil {
		t.Error("end silence below the speech pad: no error")
	}
}
