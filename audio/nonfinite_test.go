package audio

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// floatWAV returns a mono 16 kHz WAV of 32-bit float samples.
func floatWAV(samples []float32) []byte {
	var b bytes.Buffer
	le := func(v any) { binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	le(uint32(36 + 4*len(samples)))
	b.WriteString("WAVEfmt ")
	le(uint32(16))
	le(uint16(3)) // IEEE float
	le(uint16(1))
	le(uint32(16000))
	le(uint32(16000 * 4))
	le(uint16(4))
	le(uint16(32))
	b.WriteString("data")
	le(uint32(4 * len(samples)))
	for _, s := range samples {
		le(s)
	}
	return b.Bytes()
}

// TestNonFinite: NaN and ±Inf in a float WAV read as 0 and ±1, and the
// stream counts them.
func TestNonFinite(t *testing.T) {
	nan, inf := float32(math.NaN()), float32(math.Inf(1))
	for _, tc := range []struct {
		name    string
		samples []float32
		want    int64
	}{
		{"finite", []float32{0, 0.5, -1, 1}, 0},
		{"some", []float32{0, nan, 0.5, inf, -inf, 0.25}, 3},
		{"all Inf", []float32{inf, inf, inf, inf}, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, _, err := Open(bytes.NewReader(floatWAV(tc.samples)))
			if err != nil {
				t.Fatal(err)
			}
			got, err := readAll(st, 2)
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range got {
				if x < -1 || x > 1 || x != x {
					t.Errorf("sample %d read as %v", i, x)
				}
			}
			if n := st.(interface{ NonFinite() int64 }).NonFinite(); n != tc.want {
				t.Errorf("NonFinite %d, want %d", n, tc.want)
			}
		})
	}
}
