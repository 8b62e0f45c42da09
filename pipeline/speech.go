package pipeline

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/attend-go/attend/audio"
)

// SpeechRate is the sample rate every speech model in attend consumes.
const SpeechRate = 16000

// LoadSpeech decodes an audio file of any supported format (sniffed from its
// bytes), downmixes it to mono and resamples it to SpeechRate. The path "-"
// reads standard input (buffered in memory, since decoders need to seek).
func LoadSpeech(path string, stdin io.Reader) (*audio.Signal, error) {
	r, closeFn, err := OpenInput(path, stdin)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	sig, err := audio.Decode(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", DisplayName(path), err)
	}
	if sig, err = audio.Downmix(sig); err != nil {
		return nil, fmt.Errorf("%s: %w", DisplayName(path), err)
	}
	if sig, err = audio.Resample(sig, SpeechRate); err != nil {
		return nil, fmt.Errorf("%s: %w", DisplayName(path), err)
	}
	return sig, nil
}

// OpenInput opens path, or buffers stdin for "-".
func OpenInput(path string, stdin io.Reader) (io.ReadSeeker, func(), error) {
	if path == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return nil, nil, fmt.Errorf("reading standard input: %w", err)
		}
		return bytes.NewReader(data), func() {}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err // *PathError already names the file
	}
	return f, func() { f.Close() }, nil
}

// DisplayName is how error messages name an input.
func DisplayName(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}
