package audio

import (
	"fmt"
	"math"
)

// WhisperMelFilters returns the mel filterbank openai/whisper ships
// (whisper/assets/mel_filters.npz, made by librosa.filters.mel(sr=16000,
// n_fft=400, n_mels=mels), htk=False, norm="slaney"), mels × 201,
// row-major. Whisper models use 80 bins, large-v3 128.
//
// Slaney's mel scale is linear below 1 kHz and logarithmic above:
//
//	mel(f) = 3f/200                          f < 1000 Hz
//	mel(f) = 15 + 27·ln(f/1000)/ln(6.4)      f ≥ 1000 Hz
//
// mels+2 points evenly spaced in mel from 0 to mel(8000) give the corners
// of triangle m (points m, m+1, m+2, in Hz), weighing FFT bin k at
// 40·k Hz; each triangle is scaled to unit area, 2/(f[m+2] − f[m]).
// The arithmetic follows librosa's: float64, with the triangle weights
// stored in float32 before the scaling.
func WhisperMelFilters(mels int) ([]float32, error) {
	if mels <= 0 || mels > 1024 {
		return nil, fmt.Errorf("audio: whisper mel filters: %d mel bins, want 1 … 1024", mels)
	}
	// librosa.mel_frequencies: numpy.linspace in mel, then mel_to_hz.
	top := slaneyMel(WhisperSampleRate / 2)
	step := top / float64(mels+1)
	corners := make([]float64, mels+2)
	for i := range corners {
		corners[i] = slaneyHz(float64(i) * step)
	}
	corners[mels+1] = slaneyHz(top) // linspace's endpoint is exact
	filters := make([]float32, mels*WhisperBins)
	for m := range mels {
		lowWidth, highWidth := corners[m+1]-corners[m], corners[m+2]-corners[m+1]
		enorm := 2 / (corners[m+2] - corners[m])
		for k := range WhisperBins {
			hz := float64(k) * WhisperSampleRate / WhisperFFT
			lower := (hz - corners[m]) / lowWidth
			upper := (corners[m+2] - hz) / highWidth
			w := float32(max(0, min(lower, upper)))
			filters[m*WhisperBins+k] = float32(float64(w) * enorm)
		}
	}
	return filters, nil
}

// Slaney's mel scale (librosa's hz_to_mel and mel_to_hz with htk=False),
// in float64 variables so that every constant rounds as in librosa
// (15 mels at 1 kHz is 14.999999999999998 there).
var (
	slaneyLinearHz = 200.0 / 3 // Hz per mel below 1 kHz
	slaneyBreakHz  = 1000.0
	slaneyBreakMel = slaneyBreakHz / slaneyLinearHz
	slaneyLogStep  = math.Log(6.4) / 27 // ln(Hz ratio) per mel above 1 kHz
)

func slaneyMel(hz float64) float64 {
	if hz >= slaneyBreakHz {
		return slaneyBreakMel + math.Log(hz/slaneyBreakHz)/slaneyLogStep
	}
	return hz / slaneyLinearHz
}

func slaneyHz(mel float64) float64 {
	if mel >= slaneyBreakMel {
		return slaneyBreakHz * math.Exp(slaneyLogStep*(mel-slaneyBreakMel))
	}
	return slaneyLinearHz * mel
}
