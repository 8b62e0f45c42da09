package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/attend-go/attend/internal/atomicfile"
	"github.com/attend-go/attend/pipeline/batch"
)

const mergeUsage = `Usage: %[1]s merge [flags] OUTPUT...

Joins the outputs of several batch runs (the shards of one corpus, each
written by "%[1]s %[2]s --shard i/n -o FILE") into one, sorted by
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

	%[1]s merge -h

Recipes:

	%[1]s merge -o %[2]s.jsonl out/shard-*.jsonl
	%[1]s merge -format tsv out/shard-0.tsv out/shard-1.tsv > %[2]s.tsv
`

// MergeCommand returns the merge command of tool ("asr merge", "caption
// merge"), which joins the combined outputs of the shards of a batch,
// each written by "tool command --shard i/n -o FILE", into one sorted by
// path (batch.Merge). results names the merged output in its recipes
// ("transcripts").
func MergeCommand(tool, command, results string) Command {
	usage := fmt.Sprintf(mergeUsage, tool, command)
	examples := fmt.Sprintf(mergeExamples, tool, results)
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) error {
		fs := NewFlagSet("merge", usage, examples, stderr)
		out := fs.String("o", "-", "write the merged output to `file` (\"-\": standard output)")
		format := fs.String("format", "", "format of the outputs: jsonl, tsv or csv (default: from the first one's extension)")
		if ok, err := Parse(fs, args); !ok {
			return err
		}
		inputs := fs.Args()
		if len(inputs) == 0 {
			return Usagef("merge needs the outputs to merge")
		}
		if *format != "" {
			if _, err := batch.FormatOf("", *format); err != nil {
				return Usagef("-format %q: want jsonl, tsv or csv", *format)
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
		err := atomicfile.WriteFile(*out, func(w io.Writer) error {
			var err error
			st, err = batch.Merge(inputs, w, opts)
			return err
		}, &atomicfile.Options{Perm: 0o644})
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "%s: merged %d records (%d failed) of %d outputs into %s\n", tool, st.Records, st.Failed, st.Outputs, *out)
		return nil
	}
}

// checkMergeOutput refuses an output that is one of the inputs, or whose
// extension names another format than theirs.
func checkMergeOutput(out string, inputs []string, format string) error {
	if fi, err := os.Stat(out); err == nil {
		for _, in := range inputs {
			if same, err := os.Stat(in); err == nil && os.SameFile(fi, same) {
				return Usagef("-o %s is also an input; write the merge to a new file", out)
			}
		}
	}
	if format != "" {
		return nil
	}
	want, _ := batch.FormatOf(inputs[0], "")
	if got, _ := batch.FormatOf(out, ""); got != want {
		return Usagef("-o %s: the outputs are %s (like %s), so the merge is too; name it so, or give -format", out, want, inputs[0])
	}
	return nil
}
