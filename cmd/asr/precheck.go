package main

import (
	"fmt"
	"os"
	"path/filepath"
)

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
