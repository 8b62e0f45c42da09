package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"time"
)

// Options configures Run. The zero value means the defaults below, except
// that at least one output, Output or Sidecar, must be set.
type Options struct {
	// Jobs is the number of workers, each with its own Processor.
	// Default: runtime.GOMAXPROCS(0), the cores the process may use.
	Jobs int
	// Ordered writes records in input order, holding finished results
	// back until those before them are written (at most a few per worker).
	// Default: in the order inputs finish.
	Ordered bool

	// Output is the combined output file, one record per input; "-"
	// writes to Stdout. Default: none.
	Output string
	// Format of Output: jsonl, tsv or csv. Default: from Output's
	// extension (FormatOf), JSONL when it has none.
	Format string
	// Sidecar writes each input's result to a file of its own in this
	// format: txt, json, srt or vtt (SidecarPath says where). Default:
	// none.
	Sidecar string
	// OutDir puts sidecars below this directory, mirroring the inputs'
	// trees, instead of next to each input. It is created if needed.
	OutDir string

	// Resume skips the inputs already done: with Output, those with a
	// successful record in it (failed ones are retried, and their old
	// records dropped); with only sidecars, those whose sidecar exists.
	// With Output, the sidecars of the inputs not yet recorded may be
	// replaced. Default: an existing non-empty output or sidecar is an
	// error (ErrExists).
	Resume bool
	// Overwrite replaces an existing output and existing sidecars.
	Overwrite bool
	// FailFast stops at the first failure: nothing new starts and the
	// inputs in flight are abandoned. Default: every input is tried.
	FailFast bool
	// Quiet draws no progress bar and prints no summary line; failures
	// are still printed. The bar is drawn only when Stderr is a terminal.
	Quiet bool

	// Model identifies the model in every record (e.g. its name and
	// checksum).
	Model string
	// Name prefixes messages and labels the progress bar. Default "batch".
	Name string
	// Abort, when cancelled, abandons the inputs in flight (see
	// WithSignals). Default: those in flight always finish.
	Abort context.Context
	// SyncEvery is how often Output is synced to disk. Records are
	// written whole as they finish, so a killed process loses none it
	// wrote; syncing bounds what a crash of the machine can lose.
	// Default 1 s.
	SyncEvery time.Duration
	// Stdout receives Output "-"; Stderr the progress bar, failures and
	// summary. Default: discarded.
	Stdout, Stderr io.Writer
}

var (
	// ErrInterrupted is returned when the context of Run was cancelled
	// before every input was handled; a command exits with
	// ExitInterrupted.
	ErrInterrupted = errors.New("batch: interrupted")
	// ErrFailed is returned when some inputs failed; Run has printed
	// them already.
	ErrFailed = errors.New("batch: inputs failed")
	// ErrOptions marks contradictory or missing Options.
	ErrOptions = errors.New("batch: bad options")
)

// Run processes inputs with Jobs workers and writes one record (and/or
// one sidecar) per input.
//
// When ctx is cancelled no new input starts; those in flight finish and
// are written, unless Options.Abort is cancelled too. Every input then
// has a complete record or none, so a later run with Resume finishes the
// job, and so does one after the process was killed outright.
//
// Run prints the failures and a summary line to Stderr and returns the
// Summary with: nil when every input succeeded; an error wrapping
// ErrInterrupted when the run was stopped early; one wrapping ErrFailed
// when some inputs failed; any other error for a problem with the
// options or the outputs, which concerns the whole batch (before any
// input starts, or when an output cannot be written).
func Run(ctx context.Context, inputs []Input, newProcessor Factory, opts *Options) (*Summary, error) {
	start := time.Now()
	var o Options
	if opts != nil {
		o = *opts
	}
	if err := o.fill(); err != nil {
		return nil, err
	}
	r := &runner{opts: o, codec: codecFor(o.Format), sum: &Summary{Inputs: len(inputs)}}
	if opts != nil && opts.Abort != nil {
		r.abortHint = " (interrupt again to abandon them)"
	}
	defer r.closeAll()
	if err := r.prepare(inputs); err != nil {
		return nil, err
	}
	procs := make([]Processor, min(o.Jobs, len(r.todo)))
	needed := slices.ContainsFunc(r.todo, func(in Input) bool { return in.Err == nil })
	for w := range procs {
		if !needed {
			break // every input to do failed already: no worker needs a model
		}
		p, err := newProcessor(w)
		if err != nil {
			return nil, fmt.Errorf("batch: starting worker %d: %w", w, err)
		}
		procs[w] = p
	}
	err := r.run(ctx, procs)
	if cerr := r.closeAll(); err == nil {
		err = cerr
	}
	r.sum.Wall = time.Since(start)
	printSummary(o.Stderr, o.Name, r.sum, o.Quiet)
	switch s := r.sum; {
	case err != nil:
		return s, err
	case s.Interrupted:
		return s, fmt.Errorf("%w: %d of %d inputs not done", ErrInterrupted, s.Abandoned+s.NotStarted, s.Inputs)
	case s.Failed > 0:
		return s, fmt.Errorf("%w: %d of %d", ErrFailed, s.Failed, s.Inputs)
	}
	return r.sum, nil
}

// fill checks the options and sets the defaults.
func (o *Options) fill() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrOptions}, args...)...)
	}
	switch {
	case o.Output == "" && o.Sidecar == "":
		return bad("no output: set an output file or a sidecar format")
	case o.Resume && o.Overwrite:
		return bad("resume and overwrite exclude each other")
	case o.Output == "-" && o.Resume:
		return bad("cannot resume standard output; name an output file")
	case o.OutDir != "" && o.Sidecar == "":
		return bad("an output directory %s needs a sidecar format", o.OutDir)
	case o.Jobs < 0:
		return bad("jobs %d: must be at least 1", o.Jobs)
	}
	switch o.Sidecar {
	case "", SidecarTXT, SidecarJSON, SidecarSRT, SidecarVTT:
	default:
		return bad("sidecar format %q (want txt, json, srt or vtt)", o.Sidecar)
	}
	if o.Output != "" {
		f, err := FormatOf(o.Output, o.Format)
		if err != nil {
			return err
		}
		o.Format = f
	}
	if o.Jobs == 0 {
		o.Jobs = runtime.GOMAXPROCS(0)
	}
	if o.Name == "" {
		o.Name = "batch"
	}
	if o.SyncEvery <= 0 {
		o.SyncEvery = time.Second
	}
	if o.Abort == nil {
		o.Abort = context.Background()
	}
	if o.Stdout == nil {
		o.Stdout = io.Discard
	}
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	return nil
}
