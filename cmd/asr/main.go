// Command asr is attend's speech recognizer.
//
// Usage:
//
//	asr <command> [flags] [arguments]
//
// Run "asr -h" for the commands and "asr <command> -h" for each one's flags.
// Each command lives in its own file and registers itself in commands.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

func main() {
	os.Exit(cli.ExitCode("asr", run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr))
}

// commands holds the subcommands; each file adds its own from init. An
// argument that is not a command name is audio to transcribe, as with
// caption: "asr talk.wav" runs "asr transcribe talk.wav".
var commands = cli.Registry{Default: "transcribe"}

const usageHead = `asr turns speech into text with an attention-based encoder–decoder.

Usage:

	asr <command> [flags] [arguments]
`

const usageTail = `
Run "asr <command> -h" for a command's flags and examples. A file as
the first argument means transcribe: "asr talk.wav" is "asr transcribe
talk.wav".

Examples:

	asr testdata/hello.wav
	asr transcribe -format srt testdata/hello.wav
	asr features testdata/hello.wav
`

// run is the whole program; main only maps its error to an exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	err := commands.Dispatch("asr", usageHead, usageTail, speechmodel.VersionInfo, args, stdin, stdout, stderr)
	if errors.Is(err, speechmodel.ErrLanguageModelFile) {
		err = fmt.Errorf("%w: a language model goes to -lm", err)
	}
	return err
}
