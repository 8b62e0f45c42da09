package batch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/attend-go/attend/internal/atomicfile"
)

// The sidecar formats: one file per input, holding its result.
const (
	SidecarTXT  = "txt"  // Result.Text and a newline
	SidecarJSON = "json" // Result.Value, indented
	SidecarSRT  = "srt"  // Result.Cues as SubRip subtitles
	SidecarVTT  = "vtt"  // Result.Cues as WebVTT
)

var (
	// ErrOutside is returned for a sidecar that would land outside its
	// output directory.
	ErrOutside = errors.New("batch: output path outside the output directory")
	// ErrOverwriteInput is returned for an output path that is an input.
	ErrOverwriteInput = errors.New("batch: output path is an input")
)

// SidecarPath returns where the sidecar with extension ext (no dot) of
// the file input goes: next to it when outDir is empty, else at the same
// place below outDir as input is below root (the tree mirrored). The name
// is the input's with its extension replaced: corpus/a/b.wav → b.txt.
//
// It fails with ErrOutside when input is not below root (so its mirrored
// place would leave outDir) and with ErrOverwriteInput when the sidecar
// would be the input itself (notes.txt with ext "txt"). It looks at names
// only; Run also refuses to write through a symbolic link leading out of
// outDir.
func SidecarPath(root, input, outDir, ext string) (string, error) {
	if ext == "" || strings.ContainsAny(ext, `/\`+"\x00") || ext != filepath.Base(ext) {
		return "", fmt.Errorf("batch: bad sidecar extension %q", ext)
	}
	input = filepath.Clean(input)
	base := filepath.Base(input)
	if base == "." || base == ".." || base == string(filepath.Separator) {
		return "", fmt.Errorf("batch: %s: not a file name", input)
	}
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	if stem == "" {
		stem = base
	}
	name := stem + "." + ext
	var out string
	if outDir == "" {
		out = filepath.Join(filepath.Dir(input), name)
	} else {
		rel, err := filepath.Rel(root, input)
		if err != nil || !filepath.IsLocal(rel) {
			return "", fmt.Errorf("%w: %s is not below %s, so it has no place below %s", ErrOutside, input, root, outDir)
		}
		out = filepath.Join(outDir, filepath.Dir(rel), name)
	}
	if out == input {
		return "", fmt.Errorf("%w: the %s sidecar of %s would replace it", ErrOverwriteInput, ext, input)
	}
	return out, nil
}

// writeSidecar writes path atomically through root
// (atomicfile.WriteIn): a kill leaves either no sidecar or a complete
// one, and root confines every path component, symbolic links included,
// to its directory.
func writeSidecar(root *os.Root, rel string, render func(io.Writer) error) error {
	return atomicfile.WriteIn(root, rel, render, nil)
}
