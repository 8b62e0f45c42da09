package main

import "github.com/attend-go/attend/cmd/internal/cli"

// caption merge is package cli's merge command, which asr shares.
func init() {
	commands.Add("merge", "join the outputs of the shards of a batch (caption --shard) into one",
		cli.MergeCommand("caption", "describe", "captions"))
}
