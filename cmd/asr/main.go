// Command asr is attend's speech recognizer.
//
// Usage:
//
//	asr <command> [flags] [arguments]
//
// Run "asr -h" for the commands and "asr <command> -h" for each one's flags.
package main

import (
	"io"
	"os"

	"github.com/attend-go/attend/pipeline"
	"github.com/attend-go/attend/pipeline/cli"
)

func main() {
	os.Exit(cli.ExitCode("asr", run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr))
}

const usage = `asr turns speech into text with an attention-based encoder–decoder.

Usage:

	asr <command> [flags] [arguments]

Commands:

	features   show the log-mel features the model sees for audio files
	version    print the version

Run "asr <command> -h" for a command's flags and examples.

Example:

	asr features testdata/hello.wav
`

// run is the whole program; main only maps its error to an exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	commands := map[string]cli.Command{"features": runFeatures}
	return cli.Dispatch("asr", usage, pipeline.Version, commands, args, stdin, stdout, stderr)
}
