package audio

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
)

// Whisper's audio hyper-parameters (openai/whisper, whisper/audio.py).
const (
	WhisperSampleRate    = 16000                             // Hz
	WhisperFFT           = 400                               // n_fft: 25 ms frames
	WhisperHop           = 160                               // hop_length: 10 ms
	WhisperBins          = WhisperFFT/2 + 1                  // 201 power-spectrum bins
	WhisperWindowSamples = 30 * WhisperSampleRate            // N_SAMPLES: a 30-second window
	WhisperWindowFrames  = WhisperWindowSamples / WhisperHop // N_FRAMES: 3000
)

// WhisperMel computes log-mel spectrograms exactly as openai/whisper's
// log_mel_spectrogram(audio, n_mels, padding) (whisper/audio.py):
//
//	x      = audio (16 kHz) followed by padding zeros, N samples
//	X[t,k] = Σₙ w[n]·x̃[160t+n]·e^(−2πikn/400)    torch.stft, center=True:
//	         x̃ is x with 200 samples reflected at each end (x[200]…x[1]
//	         before, x[N−2]…x[N−201] after), w the periodic Hann window
//	         0.5−0.5·cos(2πn/400); t = 0 … N/160 − 1 (the last frame dropped)
//	P[t,k] = |X[t,k]|²,  k = 0 … 200
//	M[m,t] = Σₖ F[m,k]·P[t,k]                    filters @ magnitudes
//	L      = log10(max(M, 1e-10));  L = max(L, max(L) − 8);  (L+4)/4
//
// so a spectrogram has N/160 frames. The clamp at max − 8 uses the
// maximum over the whole padded signal: transcribe() computes one
// spectrogram of the file followed by 30 s of zeros (padding =
// WhisperWindowSamples) and cuts its windows from it (Window).
//
// The DFT is a float64 FFT (whisperRFFT) and the mel sums run in float64
// over each filter's non-zero span; the log and the clamps are float32 as
// in torch. The reference, torch's float32 FFT, differs from this by its
// own rounding, up to about 3e-5 on the reference clips. Frames are
// split over GOMAXPROCS goroutines.
//
// A WhisperMel is safe for concurrent use.
type WhisperMel struct {
	mels    int
	filters []float64 // mels × WhisperBins, row-major
	spans   [][2]int  // per mel bin, the bins [lo, hi) where its filter is non-zero
	window  []float64 // the periodic Hann window, WhisperFFT values
}

// NewWhisperMel returns the transform for a mel filterbank of mels rows
// by WhisperBins (201) columns, row-major: the one a whisper.cpp file
// stores, or WhisperMelFilters(mels). The filters are copied.
func NewWhisperMel(filters []float32, mels int) (*WhisperMel, error) {
	if mels <= 0 || mels > 1024 || len(filters) != mels*WhisperBins {
		return nil, fmt.Errorf("audio: whisper mel filters: %d values for %d mel bins, want %d × %d", len(filters), mels, mels, WhisperBins)
	}
	m := &WhisperMel{mels: mels, filters: make([]float64, len(filters)), spans: make([][2]int, mels), window: make([]float64, WhisperFFT)}
	for i, f := range filters {
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return nil, fmt.Errorf("audio: whisper mel filters: value %d (mel %d, bin %d) is %g", i, i/WhisperBins, i%WhisperBins, f)
		}
		m.filters[i] = float64(f)
	}
	for r := range mels {
		row := m.filters[r*WhisperBins : (r+1)*WhisperBins]
		lo, hi := 0, WhisperBins
		for lo < hi && row[lo] == 0 {
			lo++
		}
		for hi > lo && row[hi-1] == 0 {
			hi--
		}
		m.spans[r] = [2]int{lo, hi}
	}
	for i := range m.window {
		m.window[i] = float64(float32(0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/WhisperFFT)))
	}
	return m, nil
}

// Mels returns the number of mel bins.
func (m *WhisperMel) Mels() int { return m.mels }

// WhisperSpectrogram is a log-mel spectrogram in the layout Whisper's
// encoder reads: Mels rows of Frames values, Data[m·Frames + t].
type WhisperSpectrogram struct {
	Mels, Frames int
	Data         []float32
}

// whisperMinFramesPerWorker keeps goroutines for short inputs from
// costing more than they save.
const whisperMinFramesPerWorker = 256

// Spectrogram returns the log-mel spectrogram of samples (mono, 16 kHz)
// followed by padding zeros, as log_mel_spectrogram(samples, mels,
// padding): (len(samples)+padding)/160 frames. torch's reflection needs
// more than 200 samples in all; fewer is an error.
func (m *WhisperMel) Spectrogram(samples []float32, padding int) (*WhisperSpectrogram, error) {
	n := len(samples) + padding
	if padding < 0 || n <= WhisperFFT/2 {
		return nil, fmt.Errorf("audio: whisper log-mel of %d samples and %d padding: need more than %d samples in all", len(samples), padding, WhisperFFT/2)
	}
	frames := n / WhisperHop
	s := &WhisperSpectrogram{Mels: m.mels, Frames: frames, Data: make([]float32, m.mels*frames)}
	workers := max(1, min(runtime.GOMAXPROCS(0), frames/whisperMinFramesPerWorker))
	tops := make([]float32, workers)
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := frames*w/workers, frames*(w+1)/workers
		wg.Go(func() { tops[w] = m.logMel(s, samples, n, lo, hi) })
	}
	wg.Wait()
	floor := slices.Max(tops) - 8
	for i, l := range s.Data {
		s.Data[i] = (max(l, floor) + 4) / 4
	}
	return s, nil
}

// logMel writes log10(max(M[m,t], 1e-10)) for frames lo … hi−1 into s
// and returns their maximum.
func (m *WhisperMel) logMel(s *WhisperSpectrogram, samples []float32, n, lo, hi int) float32 {
	fft := newWhisperRFFT()
	frame := make([]float64, WhisperFFT)
	power := make([]float64, WhisperBins)
	top := float32(math.Inf(-1))
	for t := lo; t < hi; t++ {
		if !whisperFrame(frame, samples, n, t*WhisperHop-WhisperFFT/2) {
			// Silence (transcribe's 30 s of padding): every power is 0.
			for r := range m.mels {
				s.Data[r*s.Frames+t] = whisperSilence
			}
			top = max(top, whisperSilence)
			continue
		}
		for i, w := range m.window {
			frame[i] *= w
		}
		fft.power(power, frame)
		for r, span := range m.spans {
			row := m.filters[r*WhisperBins : (r+1)*WhisperBins]
			var sum float64
			for k := span[0]; k < span[1]; k++ {
				sum += row[k] * power[k]
			}
			l := float32(math.Log10(float64(max(float32(sum), 1e-10))))
			s.Data[r*s.Frames+t] = l
			top = max(top, l)
		}
	}
	return top
}

// whisperSilence is log10(max(0, 1e-10)) in float32, a silent frame's
// value before the clamp at the maximum − 8.
var whisperSilence = float32(math.Log10(float64(float32(1e-10))))

// whisperFrame copies the 400 samples of the padded signal starting at
// sample start (negative before the signal) into dst: samples, then zeros
// up to n, reflected about both ends as torch's reflect padding. It
// reports whether any is not zero.
func whisperFrame(dst []float64, samples []float32, n, start int) bool {
	sound := false
	for i := range dst {
		j := start + i
		if j < 0 {
			j = -j
		} else if j >= n {
			j = 2*(n-1) - j
		}
		dst[i] = 0
		if j < len(samples) && samples[j] != 0 {
			dst[i] = float64(samples[j])
			sound = true
		}
	}
	return sound
}
