package synth

import (
	"bytes"
	"math"
	"testing"

	"github.com/attend-go/attend/audio"
)

func TestWriteWAVRoundTrip(t *testing.T) {
	x := []float32{0, 0.5, -0.5, 1, -1, 1.5, -1.5, 1.0 / 32767}
	var buf bytes.Buffer
	if err := WriteWAV(&buf, x, SampleRate); err != nil {
		t.Fatal(err)
	}
	if buf.Len() != wavHeaderSize+2*len(x) {
		t.Fatalf("%d bytes, want %d", buf.Len(), wavHeaderSize+2*len(x))
	}
	if got := wavSeconds(int64(buf.Len())); got != float64(len(x))/SampleRate {
		t.Errorf("wavSeconds = %g", got)
	}
	sig, err := audio.Decode(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if sig.Rate != SampleRate || sig.Channels != 1 || len(sig.Samples) != len(x) {
		t.Fatalf("decoded %d Hz, %d channels, %d samples", sig.Rate, sig.Channels, len(sig.Samples))
	}
	for i, v := range x {
		want := min(max(math.Round(float64(v)*32767), -32768), 32767) / 32768 // clamped, then read as x/32768
		if math.Abs(float64(sig.Samples[i])-want) > 1e-7 {
			t.Errorf("sample %d: wrote %g, read %g, want %g", i, v, sig.Samples[i], want)
		}
	}
}
