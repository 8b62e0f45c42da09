package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/attend-go/attend/pipeline/batch"
)

// Batch is the batch mode of a command that runs a model over many files
// (asr transcribe DIR, caption DIR): its flags, their usage errors and
// the run through package batch, one copy for every tool so that their
// batches take the same flags and say the same things.
//
// A command fills in the first fields, calls Register before parsing,
// and then asks Wanted whether its arguments ask for a batch. If they
// do, Options checks the flags and returns the options of batch.Run,
// Collect finds the inputs and Run runs them; if not, Refuse rejects the
// flags that only batches have a use for.
type Batch struct {
	// Tool prefixes messages and labels the progress bar ("asr").
	Tool string
	// Inputs names what directories are searched for ("audio files").
	Inputs string
	// Accept selects the files of a directory walk (batch.IsAudio).
	Accept func(path string, head []byte) bool
	// Formats are the command's --format values (sidecar formats): -o
	// with one of them as its extension is refused, since a file per
	// input was surely meant.
	Formats []string

	// The flags, as parsed (Register): -j, --ordered, --recursive,
	// --list, -o, --output-format, --out-dir, --shard, --resume,
	// --overwrite, --fail-fast, --quiet.
	Jobs                                      int
	Ordered, Recursive                        bool
	List, Output, OutputFormat, OutDir, Shard string
	Resume, Overwrite, FailFast, Quiet        bool

	shard batch.Shard // Shard, checked by Options
}

// batchOnly are the flags that make sense for batches alone.
var batchOnly = []string{"j", "ordered", "recursive", "output-format", "overwrite", "fail-fast", "quiet"}

// Register defines the batch flags in fs.
func (b *Batch) Register(fs *flag.FlagSet) {
	fs.IntVar(&b.Jobs, "j", 0, "`workers` running at once, sharing one model (default: one per core the process may use)")
	fs.BoolVar(&b.Ordered, "ordered", false, "write records in input order (default: as they finish)")
	fs.BoolVar(&b.Recursive, "recursive", true, "walk directories recursively; --recursive=false takes only the files directly inside")
	fs.StringVar(&b.List, "list", "", "read more input paths from `file`, one a line or NUL-separated (\"-\": standard input)")
	fs.StringVar(&b.Output, "o", "", "write one record per input to `file` (\"-\": standard output)")
	fs.StringVar(&b.OutputFormat, "output-format", "", "`format` of -o: jsonl, tsv or csv (default: from its extension, else jsonl)")
	fs.StringVar(&b.OutDir, "out-dir", "", "write the --format file of each input below `dir`, mirroring the input tree (default: next to the input)")
	fs.StringVar(&b.Shard, "shard", "", "take only shard `i/n` of the inputs (0 ≤ i < n), leaving the others to other runs")
	fs.BoolVar(&b.Resume, "resume", false, "skip the inputs already done in the outputs; retry the failed ones")
	fs.BoolVar(&b.Overwrite, "overwrite", false, "replace existing outputs")
	fs.BoolVar(&b.FailFast, "fail-fast", false, "stop at the first failed input")
	fs.BoolVar(&b.Quiet, "quiet", false, "no progress bar, no summary; failures are still printed")
}

// Wanted reports whether the arguments ask for a batch: a directory
// among them, or a flag that only a batch has a use for.
func (b *Batch) Wanted(args []string) bool {
	if b.Output != "" || b.List != "" || b.OutDir != "" || b.Resume || b.Shard != "" {
		return true
	}
	return slices.ContainsFunc(args, func(a string) bool {
		fi, err := os.Stat(a)
		return err == nil && fi.IsDir()
	})
}

// Refuse returns a usage error naming the first flag set in fs that only
// batches have a use for, for arguments that do not ask for one; the
// command may have a use for some of them with files too (allowed).
func (b *Batch) Refuse(fs *flag.FlagSet, allowed ...string) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err == nil && slices.Contains(batchOnly, f.Name) && !slices.Contains(allowed, f.Name) {
			err = Usagef("-%s applies to batches: give a directory, -o, --list, --out-dir, --resume or --shard", f.Name)
		}
	})
	return err
}

// Options checks the batch flags and turns them into the options of
// batch.Run, with usage errors that name the flags. sidecar is the
// command's --format when the user gave it, else "": each input then
// gets a file in that format (txt with --out-dir alone). With neither a
// file per input nor -o, records go to standard output. Jobs is set to
// the number of workers.
func (b *Batch) Options(sidecar string) (*batch.Options, error) {
	o := &batch.Options{
		Jobs: b.Jobs, Ordered: b.Ordered, Output: b.Output, Format: b.OutputFormat, OutDir: b.OutDir,
		Resume: b.Resume, Overwrite: b.Overwrite, FailFast: b.FailFast, Quiet: b.Quiet, Name: b.Tool,
		Sidecar: sidecar,
	}
	if o.Sidecar == "" && b.OutDir != "" {
		o.Sidecar = batch.SidecarTXT
	}
	switch {
	case b.Jobs < 0:
		return nil, Usagef("-j %d: want at least 1 (0: one per core)", b.Jobs)
	case b.Resume && b.Overwrite:
		return nil, Usagef("--resume and --overwrite exclude each other")
	case b.OutputFormat != "" && b.Output == "":
		return nil, Usagef("--output-format %s: it is the format of -o, which is not given", b.OutputFormat)
	case o.Output == "" && o.Sidecar == "":
		if b.Resume {
			return nil, Usagef("--resume needs outputs to resume: -o FILE, or a file per input (--format, --out-dir)")
		}
		o.Output = "-" // records to standard output
	case o.Output == "-" && b.Resume:
		return nil, Usagef("--resume cannot resume standard output: name a file with -o")
	}
	if _, err := batch.FormatOf(o.Output, b.OutputFormat); err != nil {
		return nil, Usagef("--output-format %q: want jsonl, tsv or csv", b.OutputFormat)
	}
	if ext := strings.TrimPrefix(filepath.Ext(o.Output), "."); b.OutputFormat == "" && slices.Contains(b.Formats, ext) {
		return nil, Usagef("-o %s: the records of a batch are JSONL, TSV or CSV (.jsonl, .tsv, .csv); for one %s file per input, use --format %s", o.Output, ext, ext)
	}
	shard, err := batch.ParseShard(b.Shard)
	if err != nil {
		return nil, Usagef("--shard: %v", err)
	}
	b.shard = shard
	if o.Jobs == 0 {
		o.Jobs = runtime.GOMAXPROCS(0)
	}
	return o, nil
}

// Collect finds the inputs of the batch Options checked: paths and the
// entries of --list, directories walked (recursively unless
// --recursive=false) for the files Accept takes, only those of --shard.
// Unless --quiet it says on stderr what it found and which directories
// it skipped. It fails when there is nothing to do.
func (b *Batch) Collect(paths []string, stdin io.Reader, stderr io.Writer) ([]batch.Input, error) {
	col, err := batch.Collect(paths, &batch.CollectOptions{
		List: b.List, Stdin: stdin, Flat: !b.Recursive, Accept: b.Accept, Shard: b.shard,
	})
	if err != nil {
		return nil, err
	}
	if !b.Quiet {
		fmt.Fprintf(stderr, "%s: %s\n", b.Tool, col)
		for _, s := range col.Skipped {
			fmt.Fprintf(stderr, "%s: skipped %s: %s\n", b.Tool, s.Path, s.Reason)
		}
	}
	if len(col.Inputs) == 0 && col.OtherShards == 0 {
		return nil, fmt.Errorf("no %s found: %s", b.Inputs, col)
	}
	return col.Inputs, nil
}

// Run runs the batch with batch.Run, SIGINT and SIGTERM handled as
// batch.WithSignals says, and says how to go on from an interrupted run
// or an output that exists.
func (b *Batch) Run(inputs []batch.Input, newProcessor batch.Factory, opts *batch.Options) error {
	ctx, abort, stop := batch.WithSignals(context.Background())
	defer stop()
	opts.Abort = abort
	_, err := batch.Run(ctx, inputs, newProcessor, opts)
	switch {
	case errors.Is(err, batch.ErrInterrupted) && opts.Output != "-":
		return fmt.Errorf("%w; run the same command with --resume to finish", err)
	case errors.Is(err, batch.ErrExists):
		return fmt.Errorf("%w (--resume, --overwrite)", err)
	}
	return err
}
