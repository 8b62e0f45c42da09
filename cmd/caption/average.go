package main

import (
	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captioning"
)

// caption average is package cli's average command over
// captioning.CheckModel.
func init() {
	commands.Add("average", "average the weights of checkpoints of one training run",
		cli.AverageCommand("caption", "a caption", "models/caption/default.safetensors", captioning.CheckModel))
}
