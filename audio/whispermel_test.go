package audio

import (
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/attend-go/attend/internal/shareddata"
	"github.com/attend-go/attend/models/safetensors"
)

// readWhisperTensor reads tensor name of whisper/file in the shared data,
// skipping the test without it.
func readWhisperTensor(t testing.TB, file, name string) ([]float32, []int) {
	t.Helper()
	path, err := shareddata.Lookup("whisper/" + file)
	if err != nil {
		t.Skip(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, err := safetensors.NewReader(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	info, ok := r.Info(name)
	if !ok {
		t.Fatalf("%s has no tensor %s", file, name)
	}
	data, err := r.Float32s(name)
	if err != nil {
		t.Fatal(err)
	}
	return data, info.Shape
}

// maxAbsDiff returns the largest |a[i] − b[i]| and where it is.
func maxAbsDiff(a, b []float32) (float64, int) {
	worst, at := 0.0, -1
	for i := range a {
		if d := math.Abs(float64(a[i]) - float64(b[i])); d > worst || at < 0 {
			worst, at = d, i
		}
	}
	return worst, at
}

// TestWhisperMelFilters checks WhisperMelFilters against the filterbanks
// openai/whisper ships (mel_filters.safetensors holds its mel_80 and
// mel_128).
func TestWhisperMelFilters(t *testing.T) {
	for _, mels := range []int{80, 128} {
		want, shape := readWhisperTensor(t, "mel_filters.safetensors", fmt.Sprintf("mel_%d", mels))
		if len(shape) != 2 || shape[0] != mels || shape[1] != WhisperBins {
			t.Fatalf("mel_%d has shape %v", mels, shape)
		}
		got, err := WhisperMelFilters(mels)
		if err != nil {
			t.Fatal(err)
		}
		diff, at := maxAbsDiff(got, want)
		t.Logf("%d mel bins: max |error| %.3g (mel %d, bin %d)", mels, diff, at/WhisperBins, at%WhisperBins)
		if diff > 1e-9 {
			t.Errorf("%d mel bins: max |error| %g at mel %d bin %d: %g, want %g", mels, diff, at/WhisperBins, at%WhisperBins, got[at], want[at])
		}
	}
	if _, err := WhisperMelFilters(0); err == nil {
		t.Error("0 mel bins: no error")
	}
}

// loadWhisperClip decodes whisper/clips/name.wav (16 kHz mono).
func loadWhisperClip(t testing.TB, name string) []float32 {
	t.Helper()
	path, err := shareddata.Lookup("whisper/clips/" + name + ".wav")
	if err != nil {
		t.Skip(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sig, err := Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if sig.Rate != WhisperSampleRate || sig.Channels != 1 {
		t.Fatalf("%s: %d Hz, %d channels", name, sig.Rate, sig.Channels)
	}
	return sig.Samples
}

// TestWhisperSpectrogramReference checks the first window of each clip
// against the log-mel openai/whisper computed (the reference bundle's
// CLIP.mel, 80 bins for small-en and 128 for small-v3), within 1e-4.
func TestWhisperSpectrogramReference(t *testing.T) {
	for _, ref := range []struct {
		file string
		mels int
	}{{"small-en.reference.safetensors", 80}, {"small-v3.reference.safetensors", 128}} {
		for _, clip := range []string{"jfk", "harvard36"} {
			t.Run(fmt.Sprintf("%s/%d", clip, ref.mels), func(t *testing.T) {
				want, shape := readWhisperTensor(t, ref.file, clip+".mel")
				if len(shape) != 2 || shape[0] != ref.mels || shape[1] != WhisperWindowFrames {
					t.Fatalf("%s.mel has shape %v", clip, shape)
				}
				filters, _ := readWhisperTensor(t, "mel_filters.safetensors", fmt.Sprintf("mel_%d", ref.mels))
				m, err := NewWhisperMel(filters, ref.mels)
				if err != nil {
					t.Fatal(err)
				}
				samples := loadWhisperClip(t, clip)
				spec, err := m.Spectrogram(samples, WhisperWindowSamples)
				if err != nil {
					t.Fatal(err)
				}
				if spec.Frames != (len(samples)+WhisperWindowSamples)/WhisperHop {
					t.Errorf("%d frames for %d samples", spec.Frames, len(samples))
				}
				got := spec.Window(nil, 0, WhisperWindowFrames)
				diff, at := maxAbsDiff(got, want)
				t.Logf("max |error| %.3g (mel %d, frame %d)", diff, at/WhisperWindowFrames, at%WhisperWindowFrames)
				if diff > 1e-4 {
					t.Errorf("max |error| %g at mel %d frame %d: %g, want %g", diff, at/WhisperWindowFrames, at%WhisperWindowFrames, got[at], want[at])
				}
			})
		}
	}
}

// TestWhisperSpectrogramWindow checks Window against pad_or_trim of a
// slice of the spectrogram: frames copied, the rest 0.
func TestWhisperSpectrogramWindow(t *testing.T) {
	const mels, frames = 3, 4500
	s := &WhisperSpectrogram{Mels: mels, Frames: frames, Data: make([]float32, mels*frames)}
	for i := range s.Data {
		s.Data[i] = float32(i + 1) // never 0, so padding is visible
	}
	for _, tc := range []struct {
		name     string
		start, n int
		copied   int // frames taken from start
	}{
		{"first window", 0, 3000, 3000},
		{"a short segment", 100, 1200, 1200},
		{"more than a window is trimmed", 0, 4000, 3000},
		{"the end of the spectrogram", 4000, 3000, 500},
		{"past the end", 5000, 3000, 0},
		{"nothing", 10, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := s.Window(make([]float32, 7), tc.start, tc.n)
			if len(w) != mels*WhisperWindowFrames {
				t.Fatalf("%d values", len(w))
			}
			for m := range mels {
				for f := range WhisperWindowFrames {
					want := float32(0)
					if f < tc.copied {
						want = s.Data[m*frames+tc.start+f]
					}
					if got := w[m*WhisperWindowFrames+f]; got != want {
						t.Fatalf("mel %d frame %d = %g, want %g", m, f, got, want)
					}
				}
			}
		})
	}
}

// TestWhisperSpectrogramShape checks frame counts and the clamp: every
// value lies in [max−2, max] after (x+4)/4 (8 in log10 is 2 there), and
// silence is the floor.
func TestWhisperSpectrogramShape(t *testing.T) {
	filters, err := WhisperMelFilters(80)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewWhisperMel(filters, 80)
	if err != nil {
		t.Fatal(err)
	}
	tone := make([]float32, 16000)
	for i := range tone {
		tone[i] = float32(0.5 * math.Sin(2*math.Pi*440*float64(i)/WhisperSampleRate))
	}
	for _, tc := range []struct{ samples, padding, frames int }{
		{16000, 0, 100}, {16000, WhisperWindowSamples, 3100}, {201, 0, 1}, {100, 159, 1}, {16000, 159, 100},
	} {
		s, err := m.Spectrogram(tone[:tc.samples], tc.padding)
		if err != nil {
			t.Fatal(err)
		}
		if s.Frames != tc.frames || s.Mels != 80 || len(s.Data) != 80*tc.frames {
			t.Errorf("%d samples + %d: %d×%d, want 80×%d", tc.samples, tc.padding, s.Mels, s.Frames, tc.frames)
		}
		top := slices.Max(s.Data)
		if low := slices.Min(s.Data); low < top-2-1e-6 {
			t.Errorf("%d samples + %d: values from %g to %g, more than 2 apart", tc.samples, tc.padding, low, top)
		}
	}
	s, err := m.Spectrogram(tone, WhisperWindowSamples)
	if err != nil {
		t.Fatal(err)
	}
	top := slices.Max(s.Data)
	if last := s.Data[s.Frames-1]; last != top-2 {
		t.Errorf("a frame of padding is %g, want the floor %g", last, top-2)
	}
	// 440 Hz peaks in the mel bin whose triangle is centred nearest it.
	peak, at := float32(math.Inf(-1)), -1
	for r := range 80 {
		if v := s.Data[r*s.Frames+50]; v > peak {
			peak, at = v, r
		}
	}
	if center := slaneyHz(float64(at+1) * slaneyMel(8000) / 81); math.Abs(center-440) > 60 {
		t.Errorf("440 Hz peaks in mel bin %d (centre %.0f Hz)", at, center)
	}
}

func TestWhisperMelErrors(t *testing.T) {
	filters, _ := WhisperMelFilters(80)
	nan := slices.Clone(filters)
	nan[5] = float32(math.NaN())
	for _, tc := range []struct {
		name    string
		filters []float32
		mels    int
	}{
		{"wrong length", filters[:100], 80},
		{"no bins", nil, 0},
		{"NaN", nan, 80},
	} {
		if _, err := NewWhisperMel(tc.filters, tc.mels); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	m, err := NewWhisperMel(filters, 80)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ samples, padding int }{{200, 0}, {0, 0}, {100, 100}, {1000, -1}} {
		if _, err := m.Spectrogram(make([]float32, tc.samples), tc.padding); err == nil {
			t.Errorf("%d samples + %d padding: no error", tc.samples, tc.padding)
		}
	}
}

// TestWhisperRFFT checks the FFT against the DFT's definition.
func TestWhisperRFFT(t *testing.T) {
	f := newWhisperRFFT()
	x := make([]float64, WhisperFFT)
	for i := range x {
		x[i] = math.Sin(float64(i)*0.37) + 0.3*math.Cos(float64(i*i)*0.01)
	}
	got := make([]float64, WhisperBins)
	f.power(got, x)
	for k := range WhisperBins {
		var re, im float64
		for i, v := range x {
			s, c := math.Sincos(-2 * math.Pi * float64(k*i%WhisperFFT) / WhisperFFT)
			re += v * c
			im += v * s
		}
		if want := re*re + im*im; math.Abs(got[k]-want) > 1e-12*(1+want) {
			t.Errorf("bin %d: %g, want %g", k, got[k], want)
		}
	}
}

// BenchmarkWhisperSpectrogram is transcribe()'s front end on the 11 s
// jfk clip: the clip and 30 s of padding, 4,100 frames (1,100 of sound),
// 80 bins. BenchmarkWhisperSpectrogramLong does the 36 s harvard36 clip,
// 6,629 frames (3,629 of sound), 128 bins.
func BenchmarkWhisperSpectrogram(b *testing.B) { benchmarkWhisperSpectrogram(b, "jfk", 80) }

func BenchmarkWhisperSpectrogramLong(b *testing.B) {
	benchmarkWhisperSpectrogram(b, "harvard36", 128)
}

func benchmarkWhisperSpectrogram(b *testing.B, clip string, mels int) {
	samples := loadWhisperClip(b, clip)
	filters, err := WhisperMelFilters(mels)
	if err != nil {
		b.Fatal(err)
	}
	m, err := NewWhisperMel(filters, mels)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Spectrogram(samples, WhisperWindowSamples); err != nil {
			b.Fatal(err)
		}
	}
}
