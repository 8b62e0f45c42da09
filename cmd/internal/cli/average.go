package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/attend-go/attend/pipeline/trainloop"
)

const averageUsage = `Usage: %[1]s average -o OUT [-dtype float32|float16] MODEL...

Averages the weights of two or more model files or training checkpoints
of one training run, element by element: usually a better model than any
one of them (Vaswani et al. 2017 average the last checkpoints; Izmailov
et al. 2018, stochastic weight averaging, the snapshots along the end of
a run). "%[1]s train -snapshots N" keeps the weights of the N latest dev
evaluations for this. The models must have the same config, vocabulary
and tensor shapes; optimizer state is dropped, and so is metadata that
differs between them (the training position of checkpoints). The
average is checked to load as %[2]s model, then written to OUT
atomically, never over one of the models, as float32 (or -dtype float16,
the format of the embedded default model). It prints the number of
models and the output's model id (-json: an object with model, id,
models (the inputs), params and bytes).

Flags:
`

const averageExamples = `
Examples:

	%[1]s average -o /tmp/%[1]s-average.safetensors %[2]s %[2]s

Recipes:

	# keep the weights of the 8 latest dev evaluations, average them, score the average
	%[1]s train -o runs/x -snapshots 8 …
	%[1]s average -o runs/x/average.safetensors runs/x/snapshot-*.safetensors
	%[1]s eval -model runs/x/average.safetensors …
`

// AverageCommand returns the average command of tool ("asr average",
// "caption average"), which writes the element-wise mean of the weights
// of model files or checkpoints of one run (trainloop.AverageFiles). what names
// the model kind in the help ("an ASR"); example is a model file for the
// help's example, relative to the repository root. check returns why a
// model file does not load as a model of tool, or nil; it vets the first
// input (so a model of another tool fails before the others are read)
// and the average before it is written.
func AverageCommand(tool, what, example string, check trainloop.ModelCheck) Command {
	usage := fmt.Sprintf(averageUsage, tool, what)
	examples := fmt.Sprintf(averageExamples, tool, example)
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) error {
		fs := NewFlagSet("average", usage, examples, stderr)
		out := fs.String("o", "", "output `file` (required)")
		dtypeName := fs.String("dtype", "float32", "number `type` of the output's weights: float32 or float16")
		asJSON := JSONFlag(fs)
		if ok, err := Parse(fs, args); !ok {
			return err
		}
		inputs := fs.Args()
		switch {
		case *out == "":
			return Usagef("average needs -o OUT")
		case len(inputs) < 2:
			return Usagef("average needs two or more model files, got %d", len(inputs))
		}
		if *dtypeName != "float32" && *dtypeName != "float16" {
			return Usagef("-dtype %q: want float32 or float16", *dtypeName)
		}
		if err := checkAverageOutput(*out, inputs); err != nil {
			return err
		}
		avg, err := trainloop.AverageFiles(*out, inputs, *dtypeName == "float16", check)
		if err != nil {
			return err
		}
		if *asJSON {
			return WriteJSON(stdout, struct {
				Model  string   `json:"model"`
				ID     string   `json:"id"`
				Models []string `json:"models"`
				Params int      `json:"params"`
				Bytes  int      `json:"bytes"`
			}{*out, avg.ID, inputs, avg.Params, avg.Bytes})
		}
		fmt.Fprintf(stdout, "averaged %d models → %s (id %s)\n", len(inputs), *out, avg.ID)
		return nil
	}
}

// checkAverageOutput refuses an output that is one of the inputs or a
// directory, and one whose directory does not exist (before reading the
// inputs, which takes a while).
func checkAverageOutput(out string, inputs []string) error {
	fi, err := os.Stat(out)
	switch {
	case err == nil && fi.IsDir():
		return Usagef("-o %s is a directory; name the output file", out)
	case err == nil:
		for _, in := range inputs {
			if same, err := os.Stat(in); err == nil && os.SameFile(fi, same) {
				return Usagef("-o %s is also an input; write the average to a new file", out)
			}
		}
	case errors.Is(err, os.ErrNotExist):
		if _, err := os.Stat(filepath.Dir(out)); err != nil {
			return fmt.Errorf("-o %s: %w", out, err)
		}
	default:
		return fmt.Errorf("-o %s: %w", out, err)
	}
	return nil
}
