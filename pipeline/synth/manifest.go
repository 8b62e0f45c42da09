package synth

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// ManifestHeader is the first line of a manifest.
const ManifestHeader = "path\ttext\tspeaker"

// An Entry is one manifest row.
type Entry struct {
	Path    string // the WAV file, relative to the manifest's directory
	Text    string // normalized transcript
	Speaker string // "engine/voice"
}

// WriteManifest writes the header and one tab-separated row per entry.
// A field holding a tab or a line break is an error: it would break the
// row.
func WriteManifest(w io.Writer, entries []Entry) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, ManifestHeader)
	for i, e := range entries {
		for _, f := range []string{e.Path, e.Text, e.Speaker} {
			if strings.ContainsAny(f, "\t\r\n") {
				return fmt.Errorf("synth: manifest row %d: field %q holds a tab or line break", i+1, f)
			}
		}
		fmt.Fprintf(bw, "%s\t%s\t%s\n", e.Path, e.Text, e.Speaker)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("synth: manifest: %w", err)
	}
	return nil
}
