package audio

import (
	"io"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/attend-go/attend/audio/audiotest"
)

// liveStream is a Stream whose samples arrive in pieces: Read returns
// ErrPending once it has handed out what arrived, io.EOF after close.
type liveStream struct {
	buf    []float32
	closed bool
}

func (s *liveStream) Rate() int     { return vadRate }
func (s *liveStream) Channels() int { return 1 }
func (s *liveStream) Read(dst []float32) (int, error) {
	n := copy(dst, s.buf)
	s.buf = s.buf[n:]
	switch {
	case n > 0:
		return n, nil
	case s.closed:
		return 0, io.EOF
	}
	return 0, ErrPending
}

// speechOf returns the speech segments of segs, without samples.
func speechOf(segs []Segment) []Segment {
	var out []Segment
	for _, s := range segs {
		if !s.NoSpeech {
			s.Samples = nil
			out = append(out, s)
		}
	}
	return out
}

// TestSegmenterLive: a recording that arrives in pieces of any size is
// cut into the same speech segments as the whole recording, each
// returned once the audio that decides its end has arrived (at most
// 1.6 s of it after the cut), and the NoSpeech pieces tile the rest.
func TestSegmenterLive(t *testing.T) {
	hello := readHello(t)
	rng := rand.New(rand.NewPCG(3, 3))
	var x []float32
	x = append(x, make([]float32, vadRate/10)...) // a short lead-in
	for i := range 5 {
		x = append(x, hello...)
		x = append(x, make([]float32, vadRate/5+i*vadRate/2)...)
	}
	x = append(x, audiotest.White(rng, 2*vadRate, 0.01)...)
	for _, max := range []time.Duration{0, 3 * time.Second} {
		want := speechOf(segmentAll(t, x, SegmentOptions{MaxLength: max}))
		for _, piece := range []int{1, 160, 320, 1000, 4096, vadRate} {
			got, at, _ := feedLive(t, x, SegmentOptions{MaxLength: max, VAD: &VADOptions{}}, piece)
			if next := got[len(got)-1].End; next != len(x) {
				t.Fatalf("piece %d: segments cover [0, %d), want [0, %d)", piece, next, len(x))
			}
			for i, s := range got {
				// The last segment before a wait (the second of a
				// sentence cut comes with the first) that ends in a pause
				// is returned at most 1.6 s of audio after its end (the
				// pause's look-ahead); one cut inside speech once
				// MaxLength and that look-ahead have arrived.
				if s.NoSpeech || at[i] == len(x) || i+1 < len(got) && at[i+1] == at[i] {
					continue
				}
				late := 16 * vadRate / 10
				if max > 0 {
					late = durationSamples(max, vadRate) + late - (s.End - s.Start)
				}
				if at[i]-s.End > late+piece {
					t.Errorf("max %v piece %d: segment ending at %v returned %v later", max, piece, s.EndTime(),
						samplesToDuration(at[i]-s.End, vadRate))
				}
			}
			got = speechOf(got)
			if len(got) != len(want) {
				t.Fatalf("max %v piece %d: %d speech segments, want %d", max, piece, len(got), len(want))
			}
			for i := range got {
				if got[i].Start != want[i].Start || got[i].End != want[i].End {
					t.Errorf("max %v piece %d: segment %d is [%d, %d), want [%d, %d)", max, piece, i,
						got[i].Start, got[i].End, want[i].Start, want[i].End)
				}
			}
		}
	}
}

// TestVADProvisional: a decided frame's provisional probability is its
// probability; undecided frames in the middle of speech mostly look like
// speech already, and silence never does.
func TestVADProvisional(t *testing.T) {
	hello := readHello(t)
	v, err := NewVAD(nil)
	if err != nil {
		t.Fatal(err)
	}
	v.Write(hello[:2*vadRate])
	if v.Analyzed() <= v.Decided() {
		t.Fatalf("analyzed %d frames, decided %d: want some undecided", v.Analyzed(), v.Decided())
	}
	for j := v.Forgotten(); j < v.Decided(); j++ {
		if v.Provisional(j) != v.Probability(j) {
			t.Fatalf("frame %d: provisional %v, probability %v", j, v.Provisional(j), v.Probability(j))
		}
	}
	speech := 0
	for j := v.Decided(); j < v.Analyzed(); j++ {
		if v.Provisional(j) > DefaultVADThreshold {
			speech++
		}
	}
	if undecided := v.Analyzed() - v.Decided(); speech < undecided/2 {
		t.Errorf("%d of %d undecided frames of speech look like speech", speech, undecided)
	}
	v.Reset()
	v.Write(make([]float32, 3*vadRate))
	for j := v.Forgotten(); j < v.Analyzed(); j++ {
		if v.Provisional(j) != 0 {
			t.Fatalf("silence: frame %d provisionally %v", j, v.Provisional(j))
		}
	}
}
