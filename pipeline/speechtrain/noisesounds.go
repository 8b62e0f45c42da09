package speechtrain

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// Limits on the non-speech sounds kept for augmentation
// (LoadOptions.NoiseDirs): the first minute of each file, so that long
// pieces of music do not crowd out short sounds, and 30 minutes in all
// (115 MB of samples). Debian's asterisk-moh-opsound-wav (5 pieces of music
// on hold, 18 min) and sound-theme-freedesktop (35 bells, clicks and
// alarms, 38 s) give 5.6 minutes.
const (
	maxSoundFileSeconds = 60
	maxSoundSeconds     = 30 * 60
)

// sniffBytes is how much of a file loadSounds reads to tell
// audio from other files: every format's header, and enough for
// audio.Sniff to confirm an MP3 frame.
const sniffBytes = 4096

// ErrNoSounds is returned when noise directories hold no audio file.
var ErrNoSounds = errors.New("no audio files")

// loadSounds decodes the audio files under dirs (recursively, in lexical
// order within each directory) to 16 kHz mono, each scaled to unit mean
// power, for augmented copies to be mixed with. Files that do not sniff
// as a supported audio format are passed over, as are silent ones; an
// audio file that fails to decode is an error naming it. Each sound is
// cut to maxSoundFileSeconds, and loading stops once maxSoundSeconds are
// kept, so the choice depends on the files alone.
func loadSounds(dirs []string) ([][]float32, error) {
	var sounds [][]float32
	total := 0
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() || total >= maxSoundSeconds*speechmodel.SampleRate {
				return nil
			}
			if ok, err := isAudioFile(path); err != nil || !ok {
				return err
			}
			sig, err := speechmodel.Load(path, nil)
			if err != nil {
				return err
			}
			x := sig.Samples[:min(len(sig.Samples), maxSoundFileSeconds*speechmodel.SampleRate, maxSoundSeconds*speechmodel.SampleRate-total)]
			p := audio.MeanPower(x)
			if p == 0 || len(x) == 0 {
				return nil
			}
			g := float32(1 / math.Sqrt(p))
			for i := range x {
				x[i] *= g
			}
			sounds = append(sounds, x)
			total += len(x)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("noise sounds: %w", err)
		}
	}
	if len(sounds) == 0 {
		return nil, fmt.Errorf("noise sounds: %w in %s", ErrNoSounds, strings.Join(dirs, ", "))
	}
	return sounds, nil
}

// isAudioFile reports whether path starts like a format audio.Decode reads.
func isAudioFile(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, sniffBytes)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	_, err = audio.Sniff(head[:n])
	return err == nil, nil
}
