package stream

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestPCMPieces: PCM cut into pieces anywhere (inside a sample, a frame)
// decodes to the samples of the whole, mixed down and resampled.
func TestPCMPieces(t *testing.T) {
	for _, tc := range []struct{ rate, channels int }{{16000, 1}, {16000, 2}, {48000, 2}, {8000, 1}, {44100, 1}} {
		frames := tc.rate / 10
		b := make([]byte, 0, 2*tc.channels*frames)
		for i := range frames {
			v := int16(8000 * math.Sin(2*math.Pi*440*float64(i)/float64(tc.rate)))
			for range tc.channels {
				b = binary.LittleEndian.AppendUint16(b, uint16(v))
			}
		}
		decode := func(piece int) []float32 {
			p, err := NewPCM(tc.rate, tc.channels)
			if err != nil {
				t.Fatal(err)
			}
			var out []float32
			for i := 0; i < len(b); i += piece {
				out = p.Decode(out, b[i:min(i+piece, len(b))])
			}
			return p.Flush(out)
		}
		whole := decode(len(b))
		if want := 1600; math.Abs(float64(len(whole)-want)) > 1 {
			t.Errorf("%+v: %d samples, want about %d", tc, len(whole), want)
		}
		peak := float32(0)
		for _, v := range whole {
			peak = max(peak, v)
		}
		if math.Abs(float64(peak)-8000.0/32768) > 0.02 {
			t.Errorf("%+v: peak %v, want %v", tc, peak, 8000.0/32768)
		}
		for _, piece := range []int{1, 3, 7, 641} {
			got := decode(piece)
			if len(got) != len(whole) {
				t.Fatalf("%+v pieces of %d: %d samples, want %d", tc, piece, len(got), len(whole))
			}
			for i := range got {
				if got[i] != whole[i] {
					t.Fatalf("%+v pieces of %d: sample %d is %v, want %v", tc, piece, i, got[i], whole[i])
				}
			}
		}
	}
	if _, err := NewPCM(1000, 1); err == nil {
		t.Error("1000 Hz: no error")
	}
	if _, err := NewPCM(16000, 0); err == nil {
		t.Error("0 channels: no error")
	}
}
