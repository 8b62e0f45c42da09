package batch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Processor turns one input into a result. Run calls each Processor from
// one goroutine at a time; ctx is cancelled when the input is to be
// abandoned (Options.Abort, fail-fast), and a Processor that returns an
// error after that is counted as abandoned, not failed.
type Processor func(ctx context.Context, in Input) (Result, error)

// Factory makes the Processor of one worker (0 ≤ worker < Jobs). The
// model is loaded once, before Run, and shared read-only by every
// Processor; the Factory gives each its own scratch state (a
// speech.Transcriber, say). Run calls it Jobs times before any input
// starts, once the outputs are open, and not at all when every input to
// do failed already (Input.Err): a Factory may load the model at its
// first call, so that bad outputs and inputs cost no model load.
type Factory func(worker int) (Processor, error)

// Shared returns a Factory that hands every worker p, for a Processor
// that is safe for concurrent use.
func Shared(p Processor) Factory {
	return func(int) (Processor, error) { return p, nil }
}

// Result is what a Processor makes of an input.
type Result struct {
	// Text is the flat result (a transcript, a caption): the "text" of a
	// record, the TSV/CSV column, the txt sidecar.
	Text string
	// Value is the structured result, anything encoding/json can write:
	// the "result" of a JSONL record and the json sidecar. Nil: none.
	Value any
	// Cues is the timed text for srt and vtt sidecars. Nil: the result
	// has no timing, and those sidecars fail; empty: an empty subtitle
	// file (a recording without speech).
	Cues []Cue
	// Render, when set, writes every sidecar format itself instead.
	Render func(w io.Writer, format string) error
	// Truncated says the input ended before its header said it would (a
	// file cut short): the result covers what it holds. It becomes the
	// record's "truncated", and should have a warning.
	Truncated bool
	// Warnings are what an input done has to say (a file cut short,
	// broken samples): the record's "warnings" and, after the run, a
	// line each on Options.Stderr.
	Warnings []string
}

// ErrNoCues is returned for an srt or vtt sidecar of a result without
// timing.
var ErrNoCues = errors.New("batch: the result has no timed text for subtitles")

// render writes the sidecar in format.
func (r *Result) render(w io.Writer, format string) error {
	if r.Render != nil {
		return r.Render(w, format)
	}
	switch format {
	case SidecarTXT:
		_, err := io.WriteString(w, r.Text+"\n")
		return err
	case SidecarJSON:
		v := r.Value
		if v == nil {
			v = map[string]string{"text": r.Text}
		}
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	case SidecarSRT, SidecarVTT:
		if r.Cues == nil {
			return ErrNoCues
		}
		if format == SidecarSRT {
			return WriteSRT(w, r.Cues)
		}
		return WriteVTT(w, r.Cues)
	}
	return fmt.Errorf("%w %q", ErrFormat, format)
}
