package speech

import (
	"fmt"
	"image/png"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/attend-go/attend/internal/atomicfile"
	"github.com/attend-go/attend/internal/input"
	"github.com/attend-go/attend/pipeline/plot"
)

// AlignmentPlots draws, for each chunk of a transcript made with
// KeepAlignment, the log-mel spectrogram above the attention alignment
// (characters × encoder frames) with the word starts marked, and writes
// them as PNG: to path for a one-chunk transcript, else to path with
// "-001", "-002", … before its extension. encoderFrameSeconds is the
// time step of the alignment's columns (ModelInfo.EncoderFrameSeconds).
// It returns the files written.
//
// A chunk whose text came from the CTC fallback (Chunk.Fallback) has no
// attention to show: its figure says so, with the reason, and draws what
// the text came from instead, the CTC head's posterior of each character
// at each frame (0 to 1, Chunk.CTC), a box on the frame where the best
// path emitted it.
func AlignmentPlots(t *Transcript, path string, encoderFrameSeconds float64) ([]string, error) {
	ext := filepath.Ext(path)
	base := strings.TrimSuffix(path, ext)
	if ext == "" {
		ext = ".png"
	}
	var written []string
	for i, c := range t.Chunks {
		out := path
		if len(t.Chunks) > 1 {
			out = fmt.Sprintf("%s-%03d%s", base, i+1, ext)
		}
		if c.Frames == 0 || len(c.Alignment) == 0 {
			continue // silence: nothing was said, nothing to align
		}
		T := len(c.Alignment[0])
		al := plot.Alignment{Outputs: len(c.Alignment), Frames: T, Labels: c.Chars,
			FrameDuration: time.Duration(encoderFrameSeconds * float64(time.Second))}
		for _, row := range c.Alignment {
			al.Weights = append(al.Weights, row...)
		}
		var bounds []time.Duration
		for _, w := range c.Words {
			bounds = append(bounds, time.Duration((w.Start-c.Start-c.Offset)*float64(time.Second)))
		}
		title := fmt.Sprintf("%s  %s-%s  %q", input.DisplayName(t.Path), stampShort(c.Start), stampShort(c.End), c.Text)
		opts := &plot.AlignmentOptions{WordBoundaries: bounds, Title: title, OutputCaption: "character"}
		if c.Fallback != "" {
			opts.Note = "CTC fallback (" + c.Fallback + "): the text is the CTC head's best path. Not attention: the CTC posterior of each character, boxed where the path emits it."
			opts.OutputCaption = "character (CTC posterior)"
			if len(c.CTC) == len(c.Alignment) {
				al.Weights, al.Posteriors = al.Weights[:0], true
				for _, row := range c.CTC {
					al.Weights = append(al.Weights, row...)
				}
			}
			for _, row := range c.Alignment { // one-hot at the emitting frame
				opts.Path = append(opts.Path, slices.Index(row, 1))
			}
		}
		img, err := plot.AlignmentPlot(plot.Spectrogram{Frames: c.Frames, Bins: len(c.Features) / c.Frames, Data: c.Features},
			al, opts)
		if err != nil {
			return written, fmt.Errorf("alignment plot of chunk %d: %w", i+1, err)
		}
		if err := atomicfile.WriteFile(out, func(w io.Writer) error { return png.Encode(w, img) }, &atomicfile.Options{Perm: 0o644}); err != nil {
			return written, err
		}
		written = append(written, out)
	}
	return written, nil
}

func stampShort(sec float64) string { return strings.TrimPrefix(stamp(sec, '.'), "00:") }
