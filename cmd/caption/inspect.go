package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captioning"
)

const inspectUsage = `Usage: caption inspect [-json] IMAGE...

Decodes each image (JPEG, PNG, GIF, BMP, TIFF or WebP, recognized by content;
JPEG EXIF orientation applied; images over -max-pixels refused before
decoding), center-crops and resizes it to 224×224 and normalizes it for the
encoder. Prints the format, the upright size and the input's channel means;
-json prints them as one object per image (path, format, width, height,
input: its shape C, H, W, channel_mean: R, G, B). "-" reads standard input.

Flags:
`

const inspectExamples = `
Examples:

	caption inspect testdata/gradient.png
	caption inspect -json testdata/gradient.png
`

func init() {
	commands.Add("inspect", "show how images are decoded and prepared for the encoder", runInspect)
}

func runInspect(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("inspect", inspectUsage, inspectExamples, stderr)
	asJSON := cli.JSONFlag(fs)
	maxPixels := maxPixelsFlag(fs, new(int64))
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return cli.Usagef("inspect needs at least one image")
	}
	failed := 0
	for _, path := range fs.Args() {
		rep, err := captioning.InspectImage(path, stdin, *maxPixels)
		if err != nil {
			fmt.Fprintln(stderr, "caption:", maxPixelsHint(err))
			failed++
			continue
		}
		s := imageSummary{Path: path, Format: rep.Format, Width: rep.Bounds.Dx(), Height: rep.Bounds.Dy(),
			Input: [3]int{rep.Input.C, rep.Input.H, rep.Input.W}, ChannelMean: rep.ChannelMean}
		if *asJSON {
			if err := cli.WriteJSON(stdout, s); err != nil {
				return err
			}
			continue
		}
		m := s.ChannelMean
		fmt.Fprintf(stdout, "%s: %s %d×%d → input %d×%d×%d, channel means R %.3f G %.3f B %.3f\n",
			s.Path, s.Format, s.Width, s.Height, s.Input[0], s.Input[1], s.Input[2], m[0], m[1], m[2])
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d images failed", cli.ErrReported, failed, fs.NArg())
	}
	return nil
}

// imageSummary is what caption inspect prints of an image. It is not
// captioning.ImageReport, which holds the input tensor itself and the
// bounds as an image.Rectangle.
type imageSummary struct {
	Path        string     `json:"path"`
	Format      string     `json:"format"` // "jpeg", "png", ...
	Width       int        `json:"width"`  // upright (EXIF orientation applied)
	Height      int        `json:"height"`
	Input       [3]int     `json:"input"`        // the encoder input's shape: channels, height, width
	ChannelMean [3]float32 `json:"channel_mean"` // of each normalized input channel: R, G, B
}

// maxPixelsFlag defines -max-pixels, the largest image decoded, in v.
func maxPixelsFlag(fs *flag.FlagSet, v *int64) *int64 {
	fs.Int64Var(v, "max-pixels", captioning.DefaultMaxPixels, "refuse images larger than this many `pixels` (width × height), before decoding them")
	return v
}

// maxPixelsHint adds to the error of an image over the limit the flag
// that raises it.
func maxPixelsHint(err error) error {
	if errors.Is(err, captioning.ErrTooLarge) {
		return fmt.Errorf("%w (-max-pixels raises the limit)", err)
	}
	return err
}
