package main

import (
	"fmt"
	"io"
	"os"

	"github.com/attend-go/attend/pipeline/cli"
	"github.com/attend-go/attend/pipeline/speech"
)

func init() {
	commands.Add("export", "write a model or training checkpoint as a compact model file", runExport)
}

const exportUsage = `Usage: asr export [-f32] -o OUT MODEL

Reads an ASR model file or training checkpoint (last.safetensors or
best.safetensors of "asr train"), drops the optimizer state and writes the
model alone to OUT as float16 safetensors (half the size; the format of
the embedded default model), or float32 with -f32. It prints the
file's parameter count and size (-json: an object with model, params
and bytes).

Flags:
`

const exportExamples = `
Examples:

	asr export -o /tmp/hello-model.safetensors models/asr/default.safetensors
`

func runExport(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("export", exportUsage, exportExamples, stderr)
	out := fs.String("o", "", "output `file` (required)")
	f32 := fs.Bool("f32", false, "write float32 instead of float16")
	asJSON := cli.JSONFlag(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if *out == "" || fs.NArg() != 1 {
		return cli.Usagef("export needs -o OUT and one model file")
	}
	m, err := speech.ExportModel(fs.Arg(0), *out, !*f32)
	if err != nil {
		return err
	}
	st, err := os.Stat(*out)
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, struct {
			Model  string `json:"model"`
			Params int    `json:"params"`
			Bytes  int64  `json:"bytes"`
		}{*out, m.Params.Count(), st.Size()})
	}
	fmt.Fprintf(stdout, "%s: %d parameters, %.1f MB\n", *out, m.Params.Count(), float64(st.Size())/1e6)
	return nil
}
