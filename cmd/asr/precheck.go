package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/attend-go/attend/audio"
	"github.com/attend-go/attend/internal/input"
)

// sniffBytes is how much of a file checkAudio reads: enough for every
// format's header, and for audio.Sniff to confirm an MP3 frame.
const sniffBytes = 4 << 10

// checkAudio looks at an input cheaply, before the model and language
// model load (seconds and hundreds of MiB): a missing file, a directory
// or a device, an empty file, or bytes of no audio format is an error
// now, worded as transcribing it would word it. Standard input and
// pipes, which can be read only once, pass unread.
func checkAudio(path string) error {
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
	head := make([]byte, min(size, sniffBytes))
	if _, err := io.ReadFull(f, head); err != nil {
		return fmt.Errorf("%s: reading: %w", path, err)
	}
	if _, err := audio.Sniff(head); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// checkWritable reports whether a file can be created in dir, by
// creating and removing one: cheaper to learn before the model loads
// than after the audio is transcribed. what names the flag and the
// user's path in the error.
func checkWritable(dir, what string) error {
	f, err := os.CreateTemp(dir, ".asr-check-*")
	if err != nil {
		if pe, ok := err.(*os.PathError); ok {
			err = pe.Err
		}
		return fmt.Errorf("%s: cannot write in %s: %w", what, dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// checkOutputs checks, before the model loads, that -align and the
// -o* files beside each input can be written.
func checkOutputs(paths []string, align string, alignDir bool, wf *whisperFlags) error {
	if align != "" {
		dir := filepath.Dir(align)
		if alignDir {
			dir = align
		}
		if err := checkWritable(dir, "-align "+align); err != nil {
			return err
		}
	}
	if f := wf.formats(); len(f) > 0 {
		seen := map[string]bool{}
		for _, p := range paths {
			if dir := filepath.Dir(p); !seen[dir] {
				seen[dir] = true
				if err := checkWritable(dir, fmt.Sprintf("-o%s beside %s", f[0], p)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
