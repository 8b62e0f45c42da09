package audio

import (
	"errors"
	"io"
	"runtime"
	"testing"
	"time"
)

// burstStream is a mono Stream generated on the fly: a 400 Hz tone
// (amplitude 0.5) that is on for `on` samples and then off for `off`
// samples, repeated, for `total` samples. With off == 0 it is a
// continuous tone.
type burstStream struct {
	rate, on, off, total int
	pos                  int
	table                []float32 // the tone over a whole number of periods
}

func newBurstStream(rate int, on, off, total time.Duration) *burstStream {
	n := func(d time.Duration) int { return int(int64(d) * int64(rate) / int64(time.Second)) }
	b := &burstStream{rate: rate, on: n(on), off: n(off), total: n(total)}
	b.table = tone(rate, rate/gcdInt(rate, 400), 400, 0.5)
	return b
}

// silent reports whether sample i falls in a pause.
func (b *burstStream) silent(i int) bool { return i%(b.on+b.off) >= b.on }

func (b *burstStream) Rate() int     { return b.rate }
func (b *burstStream) Channels() int { return 1 }
func (b *burstStream) Read(dst []float32) (int, error) {
	if b.pos >= b.total {
		return 0, io.EOF
	}
	n := min(len(dst), b.total-b.pos)
	for k := range n {
		i := b.pos + k
		if b.silent(i) {
			dst[k] = 0
		} else {
			dst[k] = b.table[i%len(b.table)]
		}
	}
	b.pos += n
	return n, nil
}

// collect runs the segmenter to the end and checks the invariants every
// segmentation must keep: contiguous segments from 0 to total, each no
// longer than maxLen samples, with matching lengths and rates.
func collect(t *testing.T, sg *Segmenter, total, maxLen, rate int) []Segment {
	t.Helper()
	var segs []Segment
	next := 0
	for {
		s, err := sg.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if s.Start != next || s.End-s.Start != len(s.Samples) || s.Rate != rate {
			t.Fatalf("segment %d: [%d, %d) with %d samples at %d Hz; want it to start at %d, at %d Hz",
				len(segs), s.Start, s.End, len(s.Samples), s.Rate, next, rate)
		}
		if len(s.Samples) > maxLen || len(s.Samples) == 0 {
			t.Fatalf("segment %d has %d samples; want 1 … %d", len(segs), len(s.Samples), maxLen)
		}
		next = s.End
		segs = append(segs, Segment{Rate: s.Rate, Start: s.Start, End: s.End}) // drop samples: keep memory flat
	}
	if next != total {
		t.Fatalf("segments cover [0, %d), want [0, %d)", next, total)
	}
	return segs
}

func TestSegmenterCutsInPauses(t *testing.T) {
	tests := []struct {
		name    string
		on, off time.Duration
		total   time.Duration
	}{
		{"2.3 s bursts, 0.7 s pauses", 2300 * time.Millisecond, 700 * time.Millisecond, time.Minute},
		{"1.9 s bursts, 0.3 s pauses", 1900 * time.Millisecond, 300 * time.Millisecond, 50 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := newBurstStream(16000, tc.on, tc.off, tc.total)
			sg, err := NewSegmenter(src, nil)
			if err != nil {
				t.Fatal(err)
			}
			segs := collect(t, sg, src.total, 15*16000, 16000)
			margin := 16000 / 20 // cuts at least 50 ms inside the pause
			for _, s := range segs[:len(segs)-1] {
				if !src.silent(s.End-margin) || !src.silent(s.End+margin) {
					t.Errorf("cut at %v is not ≥ 50 ms inside a pause", s.EndTime())
				}
				if d := s.EndTime() - s.StartTime(); d < 12*time.Second {
					t.Errorf("segment [%v, %v) is shorter than MaxLength − SearchWindow", s.StartTime(), s.EndTime())
				}
			}
		})
	}
}

func TestSegmenterHardCutsContinuousTone(t *testing.T) {
	src := newBurstStream(16000, time.Hour, 0, 40*time.Second)
	sg, err := NewSegmenter(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	segs := collect(t, sg, src.total, 15*16000, 16000)
	want := []time.Duration{15 * time.Second, 30 * time.Second, 40 * time.Second}
	if len(segs) != len(want) {
		t.Fatalf("got %d segments, want %d", len(segs), len(want))
	}
	for i, s := range segs {
		if s.EndTime() != want[i] {
			t.Errorf("segment %d ends at %v, want %v", i, s.EndTime(), want[i])
		}
	}
}

func TestSegmenterShortAndEmpty(t *testing.T) {
	tests := []struct {
		name  string
		total time.Duration
		segs  int
	}{
		{"empty stream", 0, 0},
		{"shorter than the limit", 4 * time.Second, 1},
		{"exactly the limit", 15 * time.Second, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := newBurstStream(16000, time.Second, time.Second, tc.total)
			sg, err := NewSegmenter(src, nil)
			if err != nil {
				t.Fatal(err)
			}
			if segs := collect(t, sg, src.total, 15*16000, 16000); len(segs) != tc.segs {
				t.Errorf("got %d segments, want %d", len(segs), tc.segs)
			}
			if _, err := sg.Next(); err != io.EOF {
				t.Errorf("Next after the end: %v, want io.EOF", err)
			}
		})
	}
}

// TestSegmenterConvertsInput feeds 44.1 kHz stereo and checks that the
// segments are 16 kHz mono covering the resampled length, still cut in
// the pauses.
func TestSegmenterConvertsInput(t *testing.T) {
	mono := newBurstStream(44100, 3300*time.Millisecond, 700*time.Millisecond, 20*time.Second)
	sig := &Signal{Rate: 44100, Channels: 2, Samples: make([]float32, 2*mono.total)}
	buf := make([]float32, mono.total)
	n, _ := mono.Read(buf)
	for i, v := range buf[:n] {
		sig.Samples[2*i], sig.Samples[2*i+1] = v, v
	}
	sg, err := NewSegmenter(sig.Stream(), &SegmentOptions{MaxLength: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	total := (2*mono.total*16000 + 44100) / (2 * 44100) // rounded to nearest
	segs := collect(t, sg, total, 10*16000, 16000)
	for _, s := range segs[:len(segs)-1] {
		if at := s.End * 44100 / 16000; !mono.silent(at) {
			t.Errorf("cut at %v is not in a pause", s.EndTime())
		}
	}
}

// TestSegmenterBoundedMemory segments 30 minutes of generated audio and
// checks that the segmenter's buffer never grows past its initial
// capacity (one segment plus look-ahead and a read, under 2× MaxLength)
// and that the heap does not grow with the length of the stream.
func TestSegmenterBoundedMemory(t *testing.T) {
	src := newBurstStream(16000, 4100*time.Millisecond, 400*time.Millisecond, 30*time.Minute)
	sg, err := NewSegmenter(src, nil)
	if err != nil {
		t.Fatal(err)
	}
	capacity := cap(sg.buf)
	if capacity > 2*15*16000 {
		t.Fatalf("buffer capacity %d samples is more than 2× MaxLength", capacity)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	segs := collect(t, sg, src.total, 15*16000, 16000)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if cap(sg.buf) != capacity {
		t.Errorf("buffer grew from %d to %d samples", capacity, cap(sg.buf))
	}
	// The stream is 115 MB as float32; the segmenter needs about 1 MB.
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 8<<20 {
		t.Errorf("heap grew by %d MB over the stream", grew>>20)
	}
	if len(segs) < 30*60/15 {
		t.Errorf("%d segments for 30 min with a 15 s limit", len(segs))
	}
}

func TestSegmenterStreamError(t *testing.T) {
	boom := errors.New("network down")
	sg, err := NewSegmenter(&failingStream{rate: 16000, after: 20 * 16000, err: boom}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got int
	for {
		s, err := sg.Next()
		if err != nil {
			if !errors.Is(err, boom) {
				t.Errorf("error = %v, want the stream's", err)
			}
			break
		}
		got = s.End
	}
	if got != 20*16000 {
		t.Errorf("segments before the error end at sample %d, want %d", got, 20*16000)
	}
}

func TestNewSegmenterErrors(t *testing.T) {
	src := newBurstStream(16000, time.Second, 0, time.Second)
	tests := []struct {
		name string
		src  Stream
		opts *SegmentOptions
	}{
		{"nil stream", nil, nil},
		{"rate too low", src, &SegmentOptions{Rate: 50}},
		{"max length too short", src, &SegmentOptions{MaxLength: 100 * time.Millisecond}},
		{"search window not shorter than max length", src, &SegmentOptions{MaxLength: 5 * time.Second, SearchWindow: 5 * time.Second}},
		{"negative search window", src, &SegmentOptions{SearchWindow: -time.Second}},
		{"negative pause threshold", src, &SegmentOptions{PauseDB: -3}},
		{"bad stream rate", &failingStream{rate: 0}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewSegmenter(tc.src, tc.opts); err == nil {
				t.Error("no error")
			}
		})
	}
}
