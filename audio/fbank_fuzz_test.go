package audio

import (
	"math"
	"testing"
	"time"
)

// FuzzFbank computes features of arbitrary audio with arbitrary rates and
// framing and checks that it never panics and that every value is finite
// and at least the log floor.
func FuzzFbank(f *testing.F) {
	f.Add([]byte("some bytes standing in for speech samples"), uint16(16000), uint8(25), uint8(10), uint8(80))
	f.Add([]byte{0, 0, 0, 0}, uint16(8000), uint8(1), uint8(1), uint8(3))
	f.Add([]byte{255, 0, 255, 0, 255, 0, 255, 0, 255, 0}, uint16(1000), uint8(5), uint8(2), uint8(4))
	f.Fuzz(func(t *testing.T, data []byte, rate uint16, lengthMs, shiftMs, bins uint8) {
		x := make([]float32, len(data))
		for i, b := range data {
			x[i] = (float32(b) - 128) / 128
		}
		fb, err := NewFbank(&FbankOptions{
			FrameLength: time.Duration(lengthMs) * time.Millisecond,
			FrameShift:  time.Duration(shiftMs) * time.Millisecond,
			MelBins:     int(bins),
		})
		if err != nil {
			return // invalid options are refused
		}
		var feats Features
		if err := fb.Compute(&feats, x, int(rate)); err != nil {
			return // options impossible at this rate are refused
		}
		if want := fb.Frames(len(x), int(rate)); feats.Frames != want || len(feats.Data) != want*fb.Bins() {
			t.Fatalf("%d frames (%d values), want %d × %d", feats.Frames, len(feats.Data), want, fb.Bins())
		}
		floor := float32(math.Log(fbankEpsilon))
		for _, v := range feats.Data {
			if !(v >= floor) || math.IsInf(float64(v), 0) {
				t.Fatalf("feature value %g", v)
			}
		}
	})
}
