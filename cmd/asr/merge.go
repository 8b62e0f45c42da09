package main

import "github.com/attend-go/attend/cmd/internal/cli"

// asr merge is package cli's merge command, which caption shares.
func init() {
	commands.Add("merge", "join the outputs of the shards of a batch (transcribe --shard) into one",
		cli.MergeCommand("asr", "transcribe", "transcripts"))
}
