package audio

import (
	"io"
	"testing"
	"time"
)

// FuzzSegmenter segments arbitrary audio with arbitrary limits and checks
// that segments are contiguous, cover the input, and respect MaxLength.
func FuzzSegmenter(f *testing.F) {
	f.Add([]byte("loud quiet loud quiet"), uint8(20), uint8(10), uint8(20), uint16(0))
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0}, uint8(2), uint8(1), uint8(1), uint16(3))
	f.Add([]byte{128, 255, 0, 128}, uint8(255), uint8(0), uint8(0), uint16(0))
	f.Fuzz(func(t *testing.T, pattern []byte, maxTenths, searchTenths, pauseDB uint8, repeat uint16) {
		if len(pattern) == 0 {
			return
		}
		// Each pattern byte sets the amplitude of 50 ms of noise-like
		// signal; the pattern repeats up to 64 times.
		const rate, block = 1000, 50
		n := len(pattern) * block * (int(repeat%64) + 1)
		x := make([]float32, n)
		for i := range x {
			amp := float32(pattern[(i/block)%len(pattern)]) / 255
			x[i] = amp * float32(int(i*7919%13)-6) / 6
		}
		opts := &SegmentOptions{
			Rate:         rate,
			MaxLength:    time.Duration(maxTenths) * 100 * time.Millisecond,
			SearchWindow: time.Duration(searchTenths) * 100 * time.Millisecond,
			PauseDB:      float64(pauseDB),
		}
		sig := &Signal{Rate: rate, Channels: 1, Samples: x}
		sg, err := NewSegmenter(sig.Stream(), opts)
		if err != nil {
			return // invalid options are refused
		}
		maxLen := int(opts.MaxLength) * rate / int(time.Second)
		if opts.MaxLength == 0 {
			maxLen = 15 * rate
		}
		next := 0
		for {
			s, err := sg.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Start != next || s.End <= s.Start || s.End-s.Start > maxLen || len(s.Samples) != s.End-s.Start {
				t.Fatalf("segment [%d, %d) with %d samples after %d, max %d", s.Start, s.End, len(s.Samples), next, maxLen)
			}
			next = s.End
		}
		if next != n {
			t.Fatalf("segments end at %d of %d samples", next, n)
		}
	})
}
