package main

import (
	"fmt"
	"io"
	"os"

	"github.com/attend-go/attend/pipeline"
	"github.com/attend-go/attend/pipeline/batch"
	"github.com/attend-go/attend/pipeline/cli"
)

func init() {
	commands.Add("merge", "join the outputs of the shards of a batch (transcribe --shard) into one", runMerge)
}

const mergeUsage = `Usage: asr merge [flags] OUTPUT...

Joins the outputs of several batch runs (the shards of one corpus, each
written by "asr transcribe --shard i/n -o FILE") into one, sorted by
path, each record as it was. The outputs must share one format (JSONL,
TSV or CSV, by extension or -format). It refuses, writing nothing, an
input recorded twice (overlapping shards, or one given twice) and an
output whose last record is cut short (a shard still running or killed:
finish it with --resume first). Failure records are kept. The result goes
to -o, written to a temporary file and renamed into place (replacing
the file there), or to standard output.

Flags:
`

const mergeExamples = `
Examples:

	asr merge -h

Recipes:

	asr merge -o transcripts.jsonl out/shard-*.jsonl
	asr merge -format tsv out/shard-0.tsv out/shard-1.tsv > transcripts.tsv
`

func runMerge(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("merge", mergeUsage, mergeExamples, stderr)
	out := fs.String("o", "-", "write the merged output to `file` (\"-\": standard output)")
	format := fs.String("format", "", "format of the outputs: jsonl, tsv or csv (default: from the first one's extension)")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	inputs := fs.Args()
	if len(inputs) == 0 {
		return cli.Usagef("merge needs the outputs to merge")
	}
	if *format != "" {
		if _, err := batch.FormatOf("", *format); err != nil {
			return cli.Usagef("-format %q: want jsonl, tsv or csv", *format)
		}
	}
	opts := &batch.MergeOptions{Format: *format}
	if *out == "-" {
		_, err := batch.Merge(inputs, stdout, opts)
		return err
	}
	if err := checkMergeOutput(*out, inputs, *format); err != nil {
		return err
	}
	var st *batch.MergeStats
	err := pipeline.WriteFileAtomic(*out, func(w io.Writer) error {
		var err error
		st, err = batch.Merge(inputs, w, opts)
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "asr: merged %d records (%d failed) of %d outputs into %s\n", st.Records, st.Failed, st.Outputs, *out)
	return nil
}

// checkMergeOutput refuses an output that is one of the inputs, or whose
// extension names another format than theirs.
func checkMergeOutput(out string, inputs []string, format string) error {
	if fi, err := os.Stat(out); err == nil {
		for _, in := range inputs {
			if same, err := os.Stat(in); err == nil && os.SameFile(fi, same) {
				return cli.Usagef("-o %s is also an input; write the merge to a new file", out)
			}
		}
	}
	if format != "" {
		return nil
	}
	want, _ := batch.FormatOf(inputs[0], "")
	if got, _ := batch.FormatOf(out, ""); got != want {
		return cli.Usagef("-o %s: the outputs are %s (like %s), so the merge is too; name it so, or give -format", out, want, inputs[0])
	}
	return nil
}
