package cli

import (
	"fmt"
	"io"
	"os"
)

const exportUsage = `Usage: %[1]s export [-f32] -o OUT MODEL

Reads %[2]s model file or training checkpoint (last.safetensors or
best.safetensors of "%[1]s train"), drops the optimizer state and writes the
model alone to OUT as float16 safetensors (half the size; the format of
the embedded default model), or float32 with -f32. It prints the
file's parameter count and size (-json: an object with model, params
and bytes).

Flags:
`

const exportExamples = `
Examples:

	%[1]s export -o /tmp/%[1]s-model.safetensors %[3]s
`

// Exporter writes the model part of the model file or checkpoint src to
// dst, in float16 when half, and returns its parameter count.
type Exporter func(src, dst string, half bool) (params int, err error)

// ExportCommand returns the export command of tool ("asr export",
// "caption export"): a model file or checkpoint in, a compact model file
// out, through export. what names the model kind in the help ("an ASR");
// example is a model file for the help's example, relative to the
// repository root.
func ExportCommand(tool, what, example string, export Exporter) Command {
	usage := fmt.Sprintf(exportUsage, tool, what)
	examples := fmt.Sprintf(exportExamples, tool, what, example)
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) error {
		fs := NewFlagSet("export", usage, examples, stderr)
		out := fs.String("o", "", "output `file` (required)")
		f32 := fs.Bool("f32", false, "write float32 instead of float16")
		asJSON := JSONFlag(fs)
		if ok, err := Parse(fs, args); !ok {
			return err
		}
		if *out == "" || fs.NArg() != 1 {
			return Usagef("export needs -o OUT and one model file")
		}
		params, err := export(fs.Arg(0), *out, !*f32)
		if err != nil {
			return err
		}
		st, err := os.Stat(*out)
		if err != nil {
			return err
		}
		if *asJSON {
			return WriteJSON(stdout, struct {
				Model  string `json:"model"`
				Params int    `json:"params"`
				Bytes  int64  `json:"bytes"`
			}{*out, params, st.Size()})
		}
		fmt.Fprintf(stdout, "%s: %d parameters, %.1f MB\n", *out, params, float64(st.Size())/1e6)
		return nil
	}
}
