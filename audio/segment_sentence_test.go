package audio

import (
	"math"
	"testing"
	"time"
)

// TestSegmenterSentenceCut reads hello.wav twice with a pause of about
// 0.45 s between (its own quiet end and 50 ms of silence): too short to
// end a segment, long enough to split one between sentences when both
// sides are sentence-length.
func TestSegmenterSentenceCut(t *testing.T) {
	hello := readHello(t)
	var x []float32
	x = append(x, make([]float32, vadRate)...)
	x = append(x, hello...)
	x = append(x, make([]float32, vadRate/20)...)
	pauseEnd := len(x)
	x = append(x, hello...)
	x = append(x, make([]float32, vadRate)...)
	for _, tc := range []struct {
		name   string
		pause  time.Duration
		length time.Duration
		split  bool
	}{
		{"default", 0, 0, true},
		{"off", -1, 0, false},
		{"pause too short", 600 * time.Millisecond, 0, false},
		{"sides too short", 0, 4 * time.Second, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			segs := segmentAll(t, x, SegmentOptions{SentencePause: tc.pause, SentenceLength: tc.length})
			var speech []Segment
			for _, s := range segs {
				if !s.NoSpeech {
					speech = append(speech, s)
				}
			}
			if want := map[bool]int{true: 2, false: 1}[tc.split]; len(speech) != want {
				t.Fatalf("%d speech segments (%+v), want %d", len(speech), segs, want)
			}
			if !tc.split {
				return
			}
			cut := speech[0].End
			if speech[1].Start != cut || cut > pauseEnd || cut < pauseEnd-vadRate/2 {
				t.Fatalf("cut at %v, next segment at %v, want one cut in the pause before %v", speech[0].EndTime(),
					speech[1].StartTime(), samplesToDuration(pauseEnd, vadRate))
			}
			for _, v := range x[cut-vadRate/50 : cut+vadRate/50] {
				if math.Abs(float64(v)) > 1e-3 {
					t.Errorf("cut at %v is within 20 ms of speech", speech[0].EndTime())
					break
				}
			}
		})
	}
}
