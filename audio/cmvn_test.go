package audio

import (
	"math"
	"testing"
)

func TestCMVN(t *testing.T) {
	tests := []struct {
		name string
		in   Features
		want []float32
	}{
		{"two bins", Features{Frames: 3, Bins: 2, Data: []float32{1, 10, 2, 10, 3, 40}},
			[]float32{-1.2247449, -0.70710677, 0, -0.70710677, 1.2247449, 1.4142135}},
		{"one frame", Features{Frames: 1, Bins: 3, Data: []float32{5, -2, 7}}, []float32{0, 0, 0}},
		{"constant bin stays finite", Features{Frames: 4, Bins: 2, Data: []float32{-15.9, 1, -15.9, 2, -15.9, 3, -15.9, 4}},
			[]float32{0, -1.3416407, 0, -0.4472136, 0, 0.4472136, 0, 1.3416407}},
		{"no frames", Features{Frames: 0, Bins: 80, Data: []float32{}}, []float32{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := tc.in
			f.Data = append([]float32(nil), tc.in.Data...)
			if err := CMVN(&f); err != nil {
				t.Fatal(err)
			}
			for i, v := range f.Data {
				if math.Abs(float64(v-tc.want[i])) > 1e-6 {
					t.Fatalf("got %v, want %v", f.Data, tc.want)
				}
			}
		})
	}
}

// TestCMVNLargeOffset checks the two-pass variance: a bin at 1e4 ± 1 has
// mean and variance recovered exactly, where E[x²] − E[x]² would cancel.
func TestCMVNLargeOffset(t *testing.T) {
	f := Features{Frames: 4, Bins: 1, Data: []float32{1e4 - 1, 1e4 + 1, 1e4 - 1, 1e4 + 1}}
	if err := CMVN(&f); err != nil {
		t.Fatal(err)
	}
	for i, v := range f.Data {
		if want := float32(2*(i%2) - 1); v != want {
			t.Errorf("frame %d: %g, want %g", i, v, want)
		}
	}
}

func TestCMVNErrors(t *testing.T) {
	for _, f := range []*Features{nil, {Frames: 2, Bins: 2, Data: make([]float32, 3)}, {Frames: -1}} {
		if err := CMVN(f); err == nil {
			t.Errorf("CMVN(%+v): no error", f)
		}
	}
}
