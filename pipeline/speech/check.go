package speech

import (
	"fmt"
	"io"
	"os"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/input"
)

// CheckAudio looks at an input cheaply, before a model and language
// model load (seconds and hundreds of MiB): a missing file, a directory
// or a device, an empty file, or bytes of no audio format is an error
// now, worded as transcribing it would word it. Standard input and
// pipes, which can be read only once, pass unread.
func CheckAudio(path string) error {
	size, err := input.Check(path)
	if err != nil {
		return err
	}
	if size < 0 {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	head := make([]byte, min(size, checkBytes))
	if _, err := io.ReadFull(f, head); err != nil {
		return fmt.Errorf("%s: reading: %w", path, err)
	}
	if _, err := audio.Sniff(head); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// checkBytes is how much of a file CheckAudio reads to tell audio from
// other files: every format's header, and enough for audio.Sniff to
// confirm an MP3 frame.
const checkBytes = 4096
