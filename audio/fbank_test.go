package audio

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/go-audio/wav"
)

// readHello returns testdata/hello.wav (16 kHz mono 16-bit PCM) scaled by
// 1/32768, as torchaudio.load does. It uses go-audio/wav rather than this
// package's decoder so that the golden test checks the features alone.
func readHello(t testing.TB) []float32 {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "hello.wav"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := wav.NewDecoder(f)
	buf, err := d.FullPCMBuffer()
	if err != nil {
		t.Fatal(err)
	}
	if d.SampleRate != 16000 || d.NumChans != 1 || d.BitDepth != 16 {
		t.Fatalf("hello.wav is %d Hz, %d channels, %d bits; want 16000, 1, 16", d.SampleRate, d.NumChans, d.BitDepth)
	}
	x := make([]float32, len(buf.Data))
	for i, v := range buf.Data {
		x[i] = float32(v) / 32768
	}
	return x
}

// TestFbankMatchesTorchaudio compares features of testdata/hello.wav with
// torchaudio.compliance.kaldi.fbank (testdata/fbank/make_golden.py, whose
// cases this table mirrors): the largest absolute difference of the log
// energies must be at most 1e-2.
func TestFbankMatchesTorchaudio(t *testing.T) {
	speech := readHello(t)
	tests := []struct {
		name    string
		samples int // leading samples used; 0 means all
		rate    int
		opts    *FbankOptions
	}{
		{"povey", 0, 16000, nil},
		{"hann", 16000, 16000, &FbankOptions{Window: Hann}},
		{"options", 16000, 8000, &FbankOptions{
			MelBins: 40, FrameLength: 30 * time.Millisecond, FrameShift: 15 * time.Millisecond,
			LowFreq: 64, HighFreq: -200, NoPreemphasis: true, KeepDC: true, Window: Hann,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := readFloat32File(t, filepath.Join("testdata", "fbank", tc.name+".f32"))
			x := speech
			if tc.samples > 0 {
				x = x[:tc.samples]
			}
			fb, err := NewFbank(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got Features
			if err := fb.Compute(&got, x, tc.rate); err != nil {
				t.Fatal(err)
			}
			if got.Frames*got.Bins != len(want) || got.Frames != fb.Frames(len(x), tc.rate) {
				t.Fatalf("got %d×%d features (Frames says %d), torchaudio has %d values",
					got.Frames, got.Bins, fb.Frames(len(x), tc.rate), len(want))
			}
			var maxDiff float64
			worst := 0
			for i := range want {
				if d := math.Abs(float64(got.Data[i] - want[i])); d > maxDiff {
					maxDiff, worst = d, i
				}
			}
			t.Logf("%d×%d: max |Δ| = %.2e at frame %d bin %d (ours %.4f, torchaudio %.4f)",
				got.Frames, got.Bins, maxDiff, worst/got.Bins, worst%got.Bins, got.Data[worst], want[worst])
			if maxDiff > 1e-2 {
				t.Errorf("max |Δ| = %.3g, want ≤ 1e-2", maxDiff)
			}
		})
	}
}

// BenchmarkLogMel10s computes default log-mel features of 10 s of 16 kHz
// audio (998 frames) per op. xRT is audio seconds per second of compute.
func BenchmarkLogMel10s(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float32, 10*16000)
	for i := range x {
		x[i] = float32(0.1*math.Sin(float64(i)*0.07) + 0.01*rng.NormFloat64())
	}
	fb, err := NewFbank(nil)
	if err != nil {
		b.Fatal(err)
	}
	var f Features
	if err := fb.Compute(&f, x, 16000); err != nil { // build tables and buffers
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := fb.Compute(&f, x, 16000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(10*float64(b.N)/b.Elapsed().Seconds(), "xRT")
}

func TestFbankFrames(t *testing.T) {
	fb, err := NewFbank(nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		n, rate int
		want    int
	}{
		{"empty", 0, 16000, 0},
		{"one sample short of a window", 399, 16000, 0},
		{"one window", 400, 16000, 1},
		{"one window and a hop less one", 559, 16000, 1},
		{"two windows", 560, 16000, 2},
		{"10 s at 16 kHz", 160000, 16000, 998},
		{"1 s at 8 kHz", 8000, 8000, 98},
		{"1 s at 22.05 kHz (551-sample window, 220 hop)", 22050, 22050, 98},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := fb.Frames(tc.n, tc.rate); got != tc.want {
				t.Errorf("Frames(%d, %d) = %d, want %d", tc.n, tc.rate, got, tc.want)
			}
			var f Features
			if err := fb.Compute(&f, make([]float32, tc.n), tc.rate); err != nil {
				t.Fatal(err)
			}
			if f.Frames != tc.want || f.Bins != 80 || len(f.Data) != tc.want*80 {
				t.Errorf("Compute made %d×%d features with %d values, want %d×80", f.Frames, f.Bins, len(f.Data), tc.want)
			}
		})
	}
}

// TestFbankSilence checks the log floor: digital silence gives
// ln(1.19e-7) ≈ −15.94 everywhere, never −Inf.
func TestFbankSilence(t *testing.T) {
	fb, err := NewFbank(nil)
	if err != nil {
		t.Fatal(err)
	}
	var f Features
	if err := fb.Compute(&f, make([]float32, 1000), 16000); err != nil {
		t.Fatal(err)
	}
	want := float32(math.Log(fbankEpsilon))
	for i, v := range f.Data {
		if v != want {
			t.Fatalf("value %d = %g, want %g", i, v, want)
		}
	}
}

// TestFbankReuse checks that one Fbank and one Features serve many calls,
// across rates, with results equal to a fresh computer's and Data reused.
func TestFbankReuse(t *testing.T) {
	x := tone(16000, 16000, 440, 0.3)
	fb, err := NewFbank(nil)
	if err != nil {
		t.Fatal(err)
	}
	var f Features
	for _, rate := range []int{16000, 8000, 16000} {
		if err := fb.Compute(&f, x, rate); err != nil {
			t.Fatal(err)
		}
		fresh, err := NewFbank(nil)
		if err != nil {
			t.Fatal(err)
		}
		var want Features
		if err := fresh.Compute(&want, x, rate); err != nil {
			t.Fatal(err)
		}
		if f.Frames != want.Frames || !slices.Equal(f.Data, want.Data) {
			t.Fatalf("at %d Hz, the reused Fbank differs from a fresh one", rate)
		}
	}
	data := &f.Data[0]
	if err := fb.Compute(&f, x[:8000], 16000); err != nil {
		t.Fatal(err)
	}
	if &f.Data[0] != data {
		t.Error("Compute reallocated Data although it was large enough")
	}
}

func TestFbankDither(t *testing.T) {
	x := tone(16000, 4000, 440, 0.3)
	compute := func(opts *FbankOptions) []float32 {
		t.Helper()
		fb, err := NewFbank(opts)
		if err != nil {
			t.Fatal(err)
		}
		var f Features
		if err := fb.Compute(&f, x, 16000); err != nil {
			t.Fatal(err)
		}
		return f.Data
	}
	plain := compute(nil)
	a := compute(&FbankOptions{Dither: 1e-4, Rand: rand.New(rand.NewPCG(3, 4))})
	b := compute(&FbankOptions{Dither: 1e-4, Rand: rand.New(rand.NewPCG(3, 4))})
	if !slices.Equal(a, b) {
		t.Error("same seed, different dithered features")
	}
	if slices.Equal(a, plain) {
		t.Error("dither changed nothing")
	}
}

func TestFbankErrors(t *testing.T) {
	options := []struct {
		name string
		opts FbankOptions
	}{
		{"negative frame length", FbankOptions{FrameLength: -time.Millisecond}},
		{"negative frame shift", FbankOptions{FrameShift: -time.Millisecond}},
		{"two mel bins", FbankOptions{MelBins: 2}},
		{"negative low frequency", FbankOptions{LowFreq: -1}},
		{"unknown window", FbankOptions{Window: Window(9)}},
		{"pre-emphasis above 1", FbankOptions{Preemphasis: 1.5}},
		{"negative dither", FbankOptions{Dither: -1}},
		{"dither without a random source", FbankOptions{Dither: 1e-5}},
	}
	for _, tc := range options {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := NewFbank(&tc.opts); err == nil {
				t.Error("no error")
			}
		})
	}
	computes := []struct {
		name string
		opts FbankOptions
		rate int
	}{
		{"zero rate", FbankOptions{}, 0},
		{"window under 2 samples", FbankOptions{FrameLength: time.Millisecond}, 1000},
		{"hop under a sample", FbankOptions{FrameShift: time.Microsecond}, 16000},
		{"low frequency above Nyquist", FbankOptions{LowFreq: 9000}, 16000},
		{"high frequency above Nyquist", FbankOptions{HighFreq: 9000}, 16000},
		{"high frequency below low", FbankOptions{LowFreq: 4000, HighFreq: 3000}, 16000},
		{"more mel bins than FFT bins", FbankOptions{MelBins: 200}, 16000},
	}
	for _, tc := range computes {
		t.Run(tc.name, func(t *testing.T) {
			fb, err := NewFbank(&tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := fb.Compute(&Features{}, make([]float32, 16000), tc.rate); err == nil {
				t.Error("no error")
			}
		})
	}
	fb, err := NewFbank(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := fb.Compute(nil, nil, 16000); err == nil {
		t.Error("nil destination: no error")
	}
}

func TestWindowString(t *testing.T) {
	for w, want := range map[Window]string{Povey: "povey", Hann: "hanning", Window(7): "Window(7)"} {
		if got := w.String(); got != want {
			t.Errorf("%d: %q, want %q", int(w), got, want)
		}
	}
}
