package audio_test

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/audio"
)

// A second of a 440 Hz tone, as transcribe() sees it: followed by 30 s of
// silence, then cut into the encoder's 3000-frame window.
func ExampleWhisperMel() {
	filters, err := audio.WhisperMelFilters(80)
	if err != nil {
		panic(err)
	}
	mel, err := audio.NewWhisperMel(filters, 80)
	if err != nil {
		panic(err)
	}
	tone := make([]float32, audio.WhisperSampleRate)
	for i := range tone {
		tone[i] = float32(0.5 * math.Sin(2*math.Pi*440*float64(i)/audio.WhisperSampleRate))
	}
	spec, err := mel.Spectrogram(tone, audio.WhisperWindowSamples)
	if err != nil {
		panic(err)
	}
	window := spec.Window(nil, 0, spec.Frames)
	fmt.Printf("%d mel bins × %d frames; window of %d values\n", spec.Mels, spec.Frames, len(window))
	// Output: 80 mel bins × 3100 frames; window of 240000 values
}
