package audio

import (
	"slices"
	"testing"
)

func TestDownmix(t *testing.T) {
	tests := []struct {
		name string
		in   *Signal
		want []float32
	}{
		{"stereo", &Signal{Rate: 8000, Channels: 2, Samples: []float32{1, 0, 0.5, -0.5, -1, -1}}, []float32{0.5, 0, -1}},
		{"three channels", &Signal{Rate: 8000, Channels: 3, Samples: []float32{0.3, 0.6, 0.9}}, []float32{0.6}},
		{"empty stereo", &Signal{Rate: 8000, Channels: 2}, []float32{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Downmix(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got.Channels != 1 || got.Rate != tc.in.Rate {
				t.Errorf("got %d channels at %d Hz, want 1 at %d Hz", got.Channels, got.Rate, tc.in.Rate)
			}
			if !slices.EqualFunc(got.Samples, tc.want, func(a, b float32) bool { return abs32(a-b) < 1e-6 }) {
				t.Errorf("samples %v, want %v", got.Samples, tc.want)
			}
			// The stream form must agree, whatever the read size.
			s, err := DownmixStream(tc.in.Stream())
			if err != nil {
				t.Fatal(err)
			}
			streamed, err := readAll(s, 2)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(streamed, got.Samples) {
				t.Errorf("DownmixStream gave %v, Downmix %v", streamed, got.Samples)
			}
		})
	}
}

func TestDownmixMonoIsIdentity(t *testing.T) {
	in := &Signal{Rate: 16000, Channels: 1, Samples: []float32{1, 2}}
	if got, err := Downmix(in); err != nil || got != in {
		t.Errorf("Downmix(mono) = %p, %v; want the input itself", got, err)
	}
	s := in.Stream()
	if got, err := DownmixStream(s); err != nil || got != s {
		t.Errorf("DownmixStream(mono) = %v, %v; want the input itself", got, err)
	}
}

func TestDownmixErrors(t *testing.T) {
	tests := []struct {
		name string
		in   *Signal
	}{
		{"nil", nil},
		{"zero rate", &Signal{Channels: 2}},
		{"zero channels", &Signal{Rate: 16000}},
		{"partial frame", &Signal{Rate: 16000, Channels: 2, Samples: make([]float32, 5)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Downmix(tc.in); err == nil {
				t.Error("no error")
			}
		})
	}
	if _, err := DownmixStream(nil); err == nil {
		t.Error("DownmixStream(nil): no error")
	}
}

func abs32(x float32) float32 {
	if x < 0 {
		return -x
	}
	return x
}
