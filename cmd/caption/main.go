// Command caption is attend's image captioner.
//
// Usage:
//
//	caption <command> [flags] [arguments]
//
// Run "caption -h" for the commands and "caption <command> -h" for each
// one's flags.
package main

import (
	"io"
	"os"

	"github.com/attend-go/attend/pipeline"
	"github.com/attend-go/attend/pipeline/cli"
)

func main() {
	os.Exit(cli.ExitCode("caption", run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr), os.Stderr))
}

const usage = `caption describes images in words with an attention-based encoder–decoder.

Usage:

	caption <command> [flags] [arguments]

Commands:

	inspect    show how images are decoded and prepared for the encoder
	version    print the version

Run "caption <command> -h" for a command's flags and examples.

Example:

	caption inspect testdata/gradient.png
`

// run is the whole program; main only maps its error to an exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	commands := map[string]cli.Command{"inspect": runInspect}
	return cli.Dispatch("caption", usage, pipeline.Version, commands, args, stdin, stdout, stderr)
}
