package speechmodel

import (
	"fmt"
	"io"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/input"
)

// SampleRate is the sample rate every speech model in attend consumes.
const SampleRate = 16000

// Load decodes an audio file of any supported format (sniffed from its
// bytes), downmixes it to mono and resamples it to SampleRate. The path "-"
// reads standard input (buffered in memory, since decoders need to seek).
func Load(path string, stdin io.Reader) (*audio.Signal, error) {
	r, closeFn, err := input.Open(path, stdin)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	sig, err := audio.Decode(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", input.DisplayName(path), err)
	}
	if sig, err = audio.Downmix(sig); err != nil {
		return nil, fmt.Errorf("%s: %w", input.DisplayName(path), err)
	}
	if sig, err = audio.Resample(sig, SampleRate); err != nil {
		return nil, fmt.Errorf("%s: %w", input.DisplayName(path), err)
	}
	return sig, nil
}
