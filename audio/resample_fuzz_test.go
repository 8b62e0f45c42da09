package audio

import (
	"math"
	"slices"
	"testing"
)

// FuzzResample resamples arbitrary audio between arbitrary rates and
// checks that it never panics, that the output has OutputFrames frames of
// finite samples, and that chunked Process/Flush equals Resample.
func FuzzResample(f *testing.F) {
	f.Add([]byte{0, 64, 128, 192, 255, 1, 2, 3}, uint16(44100), uint16(16000), uint8(1), uint8(3))
	f.Add([]byte("a longer run of bytes to act as a waveform"), uint16(8000), uint16(16000), uint8(2), uint8(1))
	f.Add([]byte{255, 255, 0, 0, 255, 255, 0, 0}, uint16(16001), uint16(16000), uint8(1), uint8(7))
	f.Add([]byte{9, 200, 3}, uint16(1000), uint16(32000), uint8(1), uint8(1))
	f.Add([]byte{}, uint16(48000), uint16(16000), uint8(3), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, from, to uint16, channels, chunk uint8) {
		if from > 0 && to > 0 && (int(from) > 8*int(to) || int(to) > 8*int(from)) {
			// Steep ratios mean filters of thousands of taps or millions
			// of output samples, which would slow fuzzing to a crawl;
			// TestResampleErrors covers the ratio limit.
			return
		}
		ch := int(channels%3) + 1
		frames := len(data) / ch
		sig := &Signal{Rate: int(from), Channels: ch, Samples: make([]float32, frames*ch)}
		for i := range sig.Samples {
			sig.Samples[i] = (float32(data[i]) - 128) / 128
		}
		out, err := Resample(sig, int(to))
		if from == 0 || to == 0 {
			if err == nil {
				t.Fatal("zero rate accepted")
			}
			return
		}
		if err != nil {
			return // a ratio too large for the filter: refused, not a crash
		}
		if from == to {
			return
		}
		r, err := NewResampler(int(from), int(to), ch)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := out.Frames(), r.OutputFrames(frames); got != want {
			t.Fatalf("%d frames out, want %d", got, want)
		}
		// |output| ≤ max over phases of Σ|taps| for input in [-1, 1].
		var bound float64
		for p := 0; p*2*r.filter.half < len(r.filter.taps); p++ {
			var l1 float64
			for _, h := range r.filter.row(p) {
				l1 += math.Abs(float64(h))
			}
			bound = max(bound, l1)
		}
		for _, v := range out.Samples {
			if !(math.Abs(float64(v)) <= bound*1.001) {
				t.Fatalf("output sample %g from input in [-1, 1]; bound %g", v, bound)
			}
		}
		step := (int(chunk) + 1) * ch
		var got []float32
		for i := 0; i < len(sig.Samples); i += step {
			got = r.Process(got, sig.Samples[i:min(i+step, len(sig.Samples))])
		}
		if got = r.Flush(got); !slices.Equal(got, out.Samples) {
			t.Fatal("chunked output differs from Resample")
		}
	})
}
