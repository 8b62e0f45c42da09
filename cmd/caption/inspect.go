package main

import (
	"fmt"
	"io"

	"github.com/attend-go/attend/pipeline"
	"github.com/attend-go/attend/pipeline/cli"
)

const inspectUsage = `Usage: caption inspect IMAGE...

Decodes each image (JPEG, PNG, GIF, BMP, TIFF or WebP, recognized by content;
JPEG EXIF orientation applied; images over 50 megapixels refused before
decoding), center-crops and resizes it to 224×224 and normalizes it for the
encoder. Prints the format, the upright size and the input's channel means.
"-" reads standard input.

`

const inspectExamples = `
Examples:

	caption inspect testdata/gradient.png
`

func init() {
	commands.Add("inspect", "show how images are decoded and prepared for the encoder", runInspect)
}

func runInspect(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("inspect", inspectUsage, inspectExamples, stderr)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return cli.Usagef("inspect needs at least one image")
	}
	failed := 0
	for _, path := range fs.Args() {
		rep, err := pipeline.InspectImage(path, stdin)
		if err != nil {
			fmt.Fprintln(stderr, "caption:", err)
			failed++
			continue
		}
		m := rep.ChannelMean
		fmt.Fprintf(stdout, "%s: %s %d×%d → input %d×%d×%d, channel means R %.3f G %.3f B %.3f\n",
			path, rep.Format, rep.Bounds.Dx(), rep.Bounds.Dy(), rep.Input.C, rep.Input.H, rep.Input.W, m[0], m[1], m[2])
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d images failed", cli.ErrReported, failed, fs.NArg())
	}
	return nil
}
