package main

import (
	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// asr export is package cli's export command over speechmodel.ExportModel.
func init() {
	commands.Add("export", "write a model or training checkpoint as a compact model file",
		cli.ExportCommand("asr", "an ASR", "models/asr/default.safetensors", func(src, dst string, half bool) (int, error) {
			m, err := speechmodel.ExportModel(src, dst, half)
			if err != nil {
				return 0, err
			}
			return m.Params.Count(), nil
		}))
}
