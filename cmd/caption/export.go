package main

import (
	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captioning"
)

// caption export is package cli's export command over
// captioning.ExportModel.
func init() {
	commands.Add("export", "write a model or training checkpoint as a compact model file",
		cli.ExportCommand("caption", "a caption", "models/caption/default.safetensors", func(src, dst string, half bool) (int, error) {
			m, err := captioning.ExportModel(src, dst, half)
			if err != nil {
				return 0, err
			}
			return m.Params.Count(), nil
		}))
}
