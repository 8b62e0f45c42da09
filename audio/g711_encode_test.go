package audio

import (
	"math"
	"testing"
)

func TestG711KnownCodes(t *testing.T) {
	// Codes of an independent implementation of the same reference
	// encoder (Python's audioop.lin2ulaw / lin2alaw): µ-law's zero is 0xFF
	// and its extremes 0x80 / 0x00; A-law's zero (silence) is 0xD5 and its
	// extremes 0xAA / 0x2A.
	for _, c := range []struct {
		law  G711Law
		pcm  int
		want byte
	}{
		{MuLaw, 0, 0xFF},
		{MuLaw, 32767, 0x80},
		{MuLaw, -32768, 0x00},
		{MuLaw, 100, 0xF2},
		{MuLaw, -100, 0x72},
		{MuLaw, 1000, 0xCE},
		{ALaw, 0, 0xD5},
		{ALaw, 32767, 0xAA},
		{ALaw, -32768, 0x2A},
		{ALaw, 100, 0xD3},
		{ALaw, -100, 0x53},
		{ALaw, 1000, 0xFA},
	} {
		enc := map[G711Law]func(int) byte{MuLaw: linearToMuLaw, ALaw: linearToALaw}[c.law]
		if got := enc(c.pcm); got != c.want {
			t.Errorf("%v(%d) = %#02x, want %#02x", c.law, c.pcm, got, c.want)
		}
	}
}

// Every decoded code value must encode back to a code with the same value:
// the codec's own outputs are its fixed points.
func TestG711CodesAreFixedPoints(t *testing.T) {
	for _, law := range []G711Law{MuLaw, ALaw} {
		table := map[G711Law]*[256]float32{MuLaw: &muLawTable, ALaw: &aLawTable}[law]
		for b := range 256 {
			x := []float32{table[b]}
			if err := G711(x, law); err != nil {
				t.Fatal(err)
			}
			if x[0] != table[b] {
				t.Errorf("%v: code %#02x decodes to %g, which comes back as %g", law, b, table[b], x[0])
			}
		}
	}
}

// The quantization noise of a sine stays about 38 dB below it over a wide
// range of levels (the point of companding), and the error of one sample
// never exceeds half the step of its segment.
func TestG711SignalToQuantizationNoise(t *testing.T) {
	for _, law := range []G711Law{MuLaw, ALaw} {
		for _, dBFS := range []float64{-3, -20, -40} {
			amp := math.Pow(10, dBFS/20)
			x := make([]float32, 8000)
			for i := range x {
				x[i] = float32(amp * math.Sin(2*math.Pi*1004*float64(i)/8000))
			}
			y := append([]float32(nil), x...)
			if err := G711(y, law); err != nil {
				t.Fatal(err)
			}
			var sig, noise float64
			for i := range x {
				d := float64(y[i] - x[i])
				sig += float64(x[i]) * float64(x[i])
				noise += d * d
				// The largest step of either law is 1024 of 32768; the
				// encoders drop 2 (µ-law) or 3 (A-law) low bits first.
				if math.Abs(d) > (1024.0/2+8)/32768 {
					t.Fatalf("%v at %g dBFS: sample %d error %g", law, dBFS, i, d)
				}
			}
			if snr := 10 * math.Log10(sig/noise); snr < 33 || snr > 42 {
				t.Errorf("%v at %g dBFS: SQNR %.1f dB, want 33–42", law, dBFS, snr)
			}
		}
	}
}

func TestG711RejectsUnknownLaw(t *testing.T) {
	if err := G711([]float32{0.5}, G711Law(7)); err == nil {
		t.Fatal("G711 with law 7: no error")
	}
}
