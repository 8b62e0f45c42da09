package main

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
	"github.com/attend-go/attend/pipeline/cli"
	"github.com/attend-go/attend/pipeline/speech"
)

func init() {
	commands.Add("transcribe", "turn speech in audio files and directories into text, with word timings", runTranscribe)
}

const transcribeUsage = `Usage: asr transcribe [flags] FILE...
       asr transcribe [flags] DIR...

Transcribes each audio file (WAV, FLAC, OGG Vorbis or MP3, recognized by
content; "-" reads standard input) with the embedded default model or
-model. Long recordings are cut into chunks of at most 15 s at pauses and
decoded chunk by chunk, so memory stays bounded whatever the length.

Files: the transcripts go to standard output in -format: txt prints the
text (PATH<TAB>text when there are several files); json one object per
file with the text, the chunks and per-word start/end times derived from
the attention alignment; srt and vtt subtitles. A file that fails is
reported on stderr and the others are still transcribed; the exit status
is then 1.

Batches: when an argument is a directory, or -o, --list, --out-dir,
--resume or --shard is given, the inputs are transcribed as a batch by -j
workers sharing one model. Directories are walked (recursively unless
--recursive=false) for audio files, recognized by content or extension.
Each input gets one record (path, text, the json transcript, error,
model, seconds) in -o FILE: JSONL, or TSV or CSV by its extension or
--output-format. With --format each also gets a file of its own in that
format, next to it or below --out-dir in a mirror of the tree (txt when
only --out-dir is given). With neither, JSONL records go to standard
output. A failed input is recorded with its reason and the others go on
(exit status 1). Outputs are never replaced unless --overwrite; --resume
skips the inputs already done and retries the failed ones. SIGINT or
SIGTERM finishes the inputs in flight and exits with status 130 (a second
one abandons them); resume to finish. --shard i/n keeps one of n disjoint
parts of the inputs, so n machines can split a corpus; "asr merge" joins
their outputs. -j, --ordered, --recursive, --output-format, --overwrite,
--fail-fast and --quiet apply to batches only.

Flags:
`

const transcribeExamples = `
Examples:

	asr transcribe testdata/hello.wav
	asr transcribe -format json testdata/hello.wav
	asr transcribe -beam 1 -format srt testdata/hello.wav
	asr transcribe -align /tmp/hello-align.png testdata/hello.wav
	asr transcribe -beam 1 -j 2 --quiet testdata/speech > transcripts.jsonl

Recipes:

	asr transcribe -o transcripts.jsonl corpus/
	asr transcribe --resume -o transcripts.jsonl corpus/
	asr transcribe --format srt --out-dir subtitles/ corpus/
	find corpus -name '*.flac' -print0 | asr transcribe --list - -o transcripts.tsv
	asr transcribe --resume --shard 3/8 -o out/shard-3.jsonl corpus/
	asr merge -o transcripts.jsonl out/shard-*.jsonl
`

// batchFlags are the flags of a batch run.
type batchFlags struct {
	jobs                 int
	ordered, recursive   bool
	list, output, outFmt string
	outDir, shard        string
	resume, overwrite    bool
	failFast, quiet      bool
}

func (b *batchFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&b.jobs, "j", 0, "`workers` transcribing files at once (default: one per core the process may use)")
	fs.BoolVar(&b.ordered, "ordered", false, "write records in input order (default: as they finish)")
	fs.BoolVar(&b.recursive, "recursive", true, "walk directories recursively; --recursive=false takes only the files directly inside")
	fs.StringVar(&b.list, "list", "", "read more input paths from `file`, one a line or NUL-separated (\"-\": standard input)")
	fs.StringVar(&b.output, "o", "", "write one record per input to `file` (\"-\": standard output)")
	fs.StringVar(&b.outFmt, "output-format", "", "`format` of -o: jsonl, tsv or csv (default: from its extension, else jsonl)")
	fs.StringVar(&b.outDir, "out-dir", "", "write the --format file of each input below `dir`, mirroring the input tree (default: next to the input)")
	fs.StringVar(&b.shard, "shard", "", "transcribe only shard `i/n` of the inputs (0 ≤ i < n)")
	fs.BoolVar(&b.resume, "resume", false, "skip the inputs already done in the outputs; retry the failed ones")
	fs.BoolVar(&b.overwrite, "overwrite", false, "replace existing outputs")
	fs.BoolVar(&b.failFast, "fail-fast", false, "stop at the first failed input")
	fs.BoolVar(&b.quiet, "quiet", false, "no progress bar, no summary; failures are still printed")
}

// batchOnly are the flags that make sense for batches alone.
var batchOnly = []string{"j", "ordered", "recursive", "output-format", "overwrite", "fail-fast", "quiet"}

// wanted reports whether the arguments ask for a batch: a directory
// among them, or a flag that only a batch has a use for.
func (b *batchFlags) wanted(args []string) bool {
	if b.output != "" || b.list != "" || b.outDir != "" || b.resume || b.shard != "" {
		return true
	}
	return slices.ContainsFunc(args, func(a string) bool {
		fi, err := os.Stat(a)
		return err == nil && fi.IsDir()
	})
}

func runTranscribe(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("transcribe", transcribeUsage, transcribeExamples, stderr)
	modelPath := fs.String("model", "", "model `file` (default: the embedded model)")
	format := fs.String("format", "txt", "output format: "+strings.Join(speech.Formats, ", ")+"; for a batch, the format of a file per input")
	asJSON := fs.Bool("json", false, "shorthand for -format json")
	var so speech.SearchOptions
	fs.IntVar(&so.Beam, "beam", 4, "beam width; 1 is greedy search")
	fs.Float64Var(&so.CTCWeight, "ctc-weight", 0.3, "weight of the CTC prefix score in joint decoding; 0 for attention alone")
	fs.Float64Var(&so.LengthPenalty, "length-penalty", 1, "rank hypotheses by score / length^α; 0 for none")
	fs.Float64Var(&so.EOSThreshold, "eos-threshold", 1.5, "end of sentence only when log p(end) ≥ γ · log p(best character); 0 for none")
	align := fs.String("align", "", "draw the spectrogram and attention alignment of each chunk into this PNG `path` (a directory when there are several files)")
	noFallback := fs.Bool("no-fallback", false, "keep the attention output even where it looks broken (no CTC fallback)")
	lmPath := fs.String("lm", "", "character language model `file` (asr train-lm) for shallow fusion")
	fs.Float64Var(&so.LMWeight, "lm-weight", 0.3, "weight β of the language model's log-probability")
	var bf batchFlags
	bf.register(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *asJSON {
		*format, set["format"] = "json", true
	}
	if !slices.Contains(speech.Formats, *format) {
		return cli.Usagef("-format %q: want one of %s", *format, strings.Join(speech.Formats, ", "))
	}
	isBatch := bf.wanted(fs.Args())
	if fs.NArg() == 0 && bf.list == "" {
		return cli.Usagef("transcribe needs at least one audio file or directory")
	}
	if so.Beam < 1 {
		return cli.Usagef("-beam %d: want at least 1", so.Beam)
	}
	if so.CTCWeight < 0 || so.CTCWeight > 1 {
		return cli.Usagef("-ctc-weight %v: want [0, 1]", so.CTCWeight)
	}
	// The flags state true zeros; SearchOptions reads 0 as "default".
	if so.CTCWeight == 0 {
		so.CTCWeight = speech.NoCTC
	}
	if so.LengthPenalty == 0 {
		so.LengthPenalty = speech.NoLengthNorm
	}
	if so.EOSThreshold == 0 {
		so.EOSThreshold = -1
	}
	so.NoFallback = *noFallback
	tj := &transcription{paths: fs.Args(), modelPath: *modelPath, stdin: stdin, stdout: stdout, stderr: stderr}
	var opts *batch.Options
	alignDir := false
	if isBatch {
		if *align != "" {
			return cli.Usagef("-align draws single files; it does not apply to batches")
		}
		var err error
		if opts, err = bf.options(*format, set["format"]); err != nil {
			return err
		}
	} else {
		for _, name := range batchOnly {
			if set[name] {
				return cli.Usagef("-%s applies to batches: give a directory, -o, --list, --out-dir, --resume or --shard", name)
			}
		}
		if *align != "" {
			st, err := os.Stat(*align)
			alignDir = err == nil && st.IsDir()
			if fs.NArg() > 1 && !alignDir {
				return cli.Usagef("-align %s: with several files, -align names an existing directory", *align)
			}
		}
	}
	if *lmPath != "" {
		lm, err := speech.LoadLM(*lmPath)
		if err != nil {
			return err
		}
		so.LM = lm
	}
	tj.search = so
	if isBatch {
		return tj.batch(&bf, opts)
	}
	return tj.files(*format, *align, alignDir)
}

// transcription is a transcribe command with its flags checked.
type transcription struct {
	paths          []string // the arguments
	modelPath      string   // "" for the embedded model
	search         speech.SearchOptions
	stdin          io.Reader
	stdout, stderr io.Writer
}

// files transcribes files one after the other to stdout in format. With
// align, it draws each file's alignment there (a directory when
// alignDir).
func (tj *transcription) files(format, align string, alignDir bool) error {
	model, err := speech.OpenModel(tj.modelPath)
	if err != nil {
		return err
	}
	tr, err := speech.NewTranscriber(model, &speech.TranscribeOptions{Search: tj.search, KeepAlignment: align != ""})
	if err != nil {
		return err
	}
	failed := 0
	for _, path := range tj.paths {
		t, err := tr.File(path, tj.stdin)
		if err != nil {
			fmt.Fprintln(tj.stderr, "asr:", err)
			failed++
			continue
		}
		if align != "" {
			out := align
			if alignDir {
				name := filepath.Base(path)
				if path == "-" {
					name = "stdin"
				}
				out = filepath.Join(align, strings.TrimSuffix(name, filepath.Ext(name))+".png")
			}
			files, err := speech.AlignmentPlots(t, out, model.Config.Reduction())
			if err != nil {
				fmt.Fprintln(tj.stderr, "asr:", err)
				failed++
			}
			for _, f := range files {
				fmt.Fprintln(tj.stderr, "asr: wrote", f)
			}
		}
		if format == "txt" && len(tj.paths) > 1 {
			fmt.Fprintf(tj.stdout, "%s\t%s\n", path, t.Text)
			continue
		}
		if err := speech.WriteTranscript(tj.stdout, t, format); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d files failed", cli.ErrReported, failed, len(tj.paths))
	}
	return nil
}

// options turns the batch flags into batch options, with usage errors
// that name the flags. format is -format, given says whether it was set.
func (b *batchFlags) options(format string, given bool) (*batch.Options, error) {
	o := &batch.Options{
		Jobs: b.jobs, Ordered: b.ordered, Output: b.output, Format: b.outFmt, OutDir: b.outDir,
		Resume: b.resume, Overwrite: b.overwrite, FailFast: b.failFast, Quiet: b.quiet, Name: "asr",
	}
	switch {
	case given:
		o.Sidecar = format
	case b.outDir != "":
		o.Sidecar = batch.SidecarTXT
	}
	switch {
	case b.jobs < 0:
		return nil, cli.Usagef("-j %d: want at least 1 (0: one per core)", b.jobs)
	case b.resume && b.overwrite:
		return nil, cli.Usagef("--resume and --overwrite exclude each other")
	case b.outFmt != "" && b.output == "":
		return nil, cli.Usagef("--output-format %s: it is the format of -o, which is not given", b.outFmt)
	case o.Output == "" && o.Sidecar == "":
		if b.resume {
			return nil, cli.Usagef("--resume needs outputs to resume: -o FILE, or a file per input (--format, --out-dir)")
		}
		o.Output = "-" // records to standard output
	case o.Output == "-" && b.resume:
		return nil, cli.Usagef("--resume cannot resume standard output: name a file with -o")
	}
	if _, err := batch.FormatOf(o.Output, b.outFmt); err != nil {
		return nil, cli.Usagef("--output-format %q: want jsonl, tsv or csv", b.outFmt)
	}
	if ext := strings.TrimPrefix(filepath.Ext(o.Output), "."); b.outFmt == "" && slices.Contains(speech.Formats, ext) {
		return nil, cli.Usagef("-o %s: the records of a batch are JSONL, TSV or CSV (.jsonl, .tsv, .csv); for one %s file per input, use --format %s", o.Output, ext, ext)
	}
	return o, nil
}

// batch finds the inputs and transcribes them with package batch, one
// Transcriber per worker over one shared model, into the outputs of opts.
func (tj *transcription) batch(b *batchFlags, opts *batch.Options) error {
	shard, err := batch.ParseShard(b.shard)
	if err != nil {
		return cli.Usagef("--shard: %v", err)
	}
	col, err := batch.Collect(tj.paths, &batch.CollectOptions{
		List: b.list, Stdin: tj.stdin, Flat: !b.recursive, Accept: batch.IsAudio, Shard: shard,
	})
	if err != nil {
		return err
	}
	if !b.quiet {
		fmt.Fprintf(tj.stderr, "asr: %s\n", col)
		for _, s := range col.Skipped {
			fmt.Fprintf(tj.stderr, "asr: skipped %s: %s\n", s.Path, s.Reason)
		}
	}
	if len(col.Inputs) == 0 && col.OtherShards == 0 {
		return fmt.Errorf("no audio files to transcribe: %s", col)
	}
	model, err := speech.OpenModel(tj.modelPath)
	if err != nil {
		return err
	}
	jobs := b.jobs
	if jobs == 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	speech.SetFFTWorkers(min(jobs, len(col.Inputs)))
	ctx, abort, stop := batch.WithSignals(context.Background())
	defer stop()
	opts.Model, opts.Abort, opts.Stdout, opts.Stderr = speech.ModelID(tj.modelPath), abort, tj.stdout, tj.stderr
	_, err = batch.Run(ctx, col.Inputs, speech.BatchFactory(model, &speech.TranscribeOptions{Search: tj.search}), opts)
	switch {
	case errors.Is(err, batch.ErrInterrupted) && opts.Output != "-":
		return fmt.Errorf("%w; run the same command with --resume to finish", err)
	case errors.Is(err, batch.ErrExists):
		return fmt.Errorf("%w (--resume, --overwrite)", err)
	}
	return err
}
