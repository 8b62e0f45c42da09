package main

import (
	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

// asr average is package cli's average command over speechmodel.CheckModel.
func init() {
	commands.Add("average", "average the weights of checkpoints of one training run",
		cli.AverageCommand("asr", "an ASR", "models/asr/default.safetensors", speechmodel.CheckModel))
}
