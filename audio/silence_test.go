package audio

import "testing"

func TestTrimDigitalSilence(t *testing.T) {
	const z, s = 0, 0.1
	for _, tc := range []struct {
		name    string
		samples []float32
		minRun  int
		lo, hi  int
	}{
		{"empty", nil, 2, 0, 0},
		{"no silence", []float32{s, -s, s}, 2, 0, 3},
		{"both ends", []float32{z, z, z, s, z, s, z, z}, 2, 3, 6},
		{"short runs kept", []float32{z, s, s, z}, 2, 0, 4},
		{"short lead, long tail", []float32{z, s, s, z, z, z}, 2, 0, 3},
		{"one LSB is silence", []float32{1.0 / 32768, -1.0 / 32768, s, 1.0 / 32768, -1.0 / 32768}, 2, 2, 3},
		{"two LSB is sound", []float32{2.0 / 32768, -2.0 / 32768, s}, 2, 0, 3},
		{"all silence", []float32{z, z, z}, 2, 3, 3},
		{"all silence, shorter than a run", []float32{z}, 2, 1, 1},
		{"minRun 0 means 1", []float32{z, s, z}, 0, 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := TrimDigitalSilence(tc.samples, tc.minRun)
			if lo != tc.lo || hi != tc.hi {
				t.Errorf("TrimDigitalSilence = [%d, %d), want [%d, %d)", lo, hi, tc.lo, tc.hi)
			}
		})
	}
}
