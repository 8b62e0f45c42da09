// Command caption is attend's image captioner.
//
// Usage:
//
//	caption <command> [flags] [arguments]
//
// Run "caption -h" for the commands and "caption <command> -h" for each
// one's flags. Each command lives in its own file and registers itself in
// commands.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captioning"
)

func main() {
	os.Exit(cli.ExitCode("caption", run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr))
}

// commands holds the subcommands; each file adds its own from init. An
// argument that is not a command name is an image to describe:
// "caption photo.jpg" runs "caption describe photo.jpg".
var commands = cli.Registry{Default: "describe"}

const usageHead = `caption describes images in words with an attention-based encoder–decoder.

Usage:

	caption <command> [flags] [arguments]
`

const usageTail = `
Run "caption <command> -h" for a command's flags and examples. A file as
the first argument means describe: "caption photo.jpg" is "caption
describe photo.jpg" (the image encoder is found, or downloaded, on
first use). For instance:

	caption photo.jpg
	caption -json -beam 5 photos/ > captions.jsonl
	caption serve

Examples (on the tiny test model):

	caption -model testdata/caption/tiny.safetensors -cache testdata/caption/features-7x7.safetensors testdata/caption/images/red-square.png
	caption inspect testdata/gradient.png
`

// run is the whole program; main only maps its error to an exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	err := commands.Dispatch("caption", usageHead, usageTail, captioning.VersionInfo, args, stdin, stdout, stderr)
	if errors.Is(err, captioning.ErrEncoderFile) {
		err = fmt.Errorf("%w: give the image encoder with -encoder", err)
	}
	return err
}
