package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/pipeline/cli"
)

func init() {
	commands.Add("describe", "describe images in words (the default: caption IMAGE...)", runCaption)
}

const captionUsage = `Usage: caption [describe] [flags] IMAGE...

Describes each image in one sentence: the MobileNetV2 encoder turns it
into a 7×7 grid of features, and the Show-Attend-Tell decoder says one
word at a time while attending over the grid, with beam search. "-" reads
an image from standard input. With one image the caption is printed alone,
with several as NAME<TAB>caption. An image that fails is named on stderr
and the others are still described; the exit status is then 1.

The decoder is the embedded default model unless -model names another;
the encoder is -encoder, else $ATTEND_ENCODER, else the user cache, else
downloaded once and checked against its SHA-256. -cache names a feature
cache of "caption features": images whose file name it holds are
described from their cached features, without the encoder.

-json prints one JSON object per image and line: the caption, its words
and token ids, the attention grid of every word (grid_h rows of grid_w
weights α, over the square input the image became: fit), the gate β of
every word, and the beam's alternatives with their log-probabilities and
length-normalized scores.

Flags:
`

const captionExamples = `
Examples:

	caption describe -model testdata/caption/tiny.safetensors -cache testdata/caption/features-7x7.safetensors testdata/caption/images/red-square.png
	caption describe -json -beam 2 -model testdata/caption/tiny.safetensors -cache testdata/caption/features-7x7.safetensors testdata/caption/images/red-square.png testdata/caption/images/blue-circle.png

Recipes:

	caption photo.jpg
	caption -json -beam 5 photo.jpg
	caption -encoder ../shared/data/mobilenet/mobilenet_v2_1.0_224_quant.tflite *.jpg
	curl -s https://example.com/cat.jpg | caption -
`

func runCaption(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("describe", captionUsage, captionExamples, stderr)
	var o captioning.CaptionerOptions
	fs.StringVar(&o.Model, "model", "", "caption model `file` (default: the embedded model)")
	fs.StringVar(&o.Encoder, "encoder", "", "encoder model `file` (default $ATTEND_ENCODER, then the user cache, then a download)")
	fs.StringVar(&o.Cache, "cache", "", "feature cache `file`: images it holds need no encoder")
	fs.IntVar(&o.Beam, "beam", 3, "beam width (1: greedy search)")
	fs.IntVar(&o.Search.MaxLength, "max-words", 30, "the most words a caption may have")
	fit := fs.String("fit", "squash", "how a photo becomes square: squash (as the training images were) or crop (center)")
	asJSON := fs.Bool("json", false, "print one JSON object per image: words, tokens, attention grids, β, alternatives")
	ok, err := cli.Parse(fs, args)
	if !ok {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return cli.Usagef("describe needs at least one image")
	}
	if first := fs.Arg(0); !looksLikeImage(first) {
		// "caption nope" reaches here as "caption describe nope": a word
		// that names neither a command nor a file is a mistyped command.
		fmt.Fprint(stderr, commands.Usage(usageHead, usageTail))
		return cli.Usagef("unknown command %q, and no image file of that name", first)
	}
	if o.Beam < 1 {
		return cli.Usagef("-beam %d: want at least 1", o.Beam)
	}
	if o.Search.MaxLength < 1 {
		return cli.Usagef("-max-words %d: want at least 1", o.Search.MaxLength)
	}
	if o.Fit, err = captiondata.ParseFit(*fit); err != nil {
		return cli.Usagef("-fit %q: want squash or crop", *fit)
	}
	o.FitSet = true
	o.Progress = stderr
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := captioning.NewCaptioner(ctx, o)
	if err != nil {
		return err
	}
	defer c.Close()
	failed := 0
	enc := json.NewEncoder(stdout)
	for _, path := range fs.Args() {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r, err := c.Caption(path, stdin)
		if err != nil {
			fmt.Fprintln(stderr, "caption:", err)
			failed++
			continue
		}
		switch {
		case *asJSON:
			if err := enc.Encode(jsonResult(r)); err != nil {
				return err
			}
		case fs.NArg() == 1:
			fmt.Fprintln(stdout, r.Caption)
		default:
			fmt.Fprintf(stdout, "%s\t%s\n", path, r.Caption)
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d images failed", cli.ErrReported, failed, fs.NArg())
	}
	return nil
}

// looksLikeImage reports whether arg can be an image to describe: "-", an
// existing file, or a name with a directory or an extension (a missing
// file is then reported as such).
func looksLikeImage(arg string) bool {
	if arg == "-" || strings.ContainsAny(arg, `./\`) {
		return true
	}
	_, err := os.Stat(arg)
	return err == nil
}

// captionJSON is the -json record of one image.
type captionJSON struct {
	Path         string                   `json:"path"`
	Caption      string                   `json:"caption"`
	Words        []string                 `json:"words"`
	Tokens       []int                    `json:"tokens"`
	LogProb      float64                  `json:"log_prob"`
	Score        float64                  `json:"score"`
	Finished     bool                     `json:"finished"`
	Fit          string                   `json:"fit"`
	GridH        int                      `json:"grid_h"`
	GridW        int                      `json:"grid_w"`
	Attention    [][][]float32            `json:"attention"` // word, row y, column x
	Beta         []float32                `json:"beta"`
	Alternatives []captioning.Alternative `json:"alternatives"`
}

// jsonResult lays out the attention of each word as a grid, its weights
// rounded to 4 decimals.
func jsonResult(r *captioning.Result) captionJSON {
	out := captionJSON{
		Path: r.Path, Caption: r.Caption, Words: r.Words, Tokens: r.Tokens, LogProb: r.LogProb, Score: r.Score,
		Finished: r.Finished, Fit: r.Fit, GridH: r.GridH, GridW: r.GridW, Alternatives: r.Alternatives,
		Attention: make([][][]float32, len(r.Attention)), Beta: make([]float32, len(r.Beta)),
	}
	for i, a := range r.Attention {
		grid := make([][]float32, r.GridH)
		for y := range grid {
			grid[y] = make([]float32, r.GridW)
			for x := range grid[y] {
				grid[y][x] = round4(a[y*r.GridW+x])
			}
		}
		out.Attention[i] = grid
	}
	for i, b := range r.Beta {
		out.Beta[i] = round4(b)
	}
	if out.Tokens == nil {
		out.Tokens, out.Words = []int{}, []string{}
	}
	return out
}

func round4(v float32) float32 { return float32(math.Round(float64(v)*1e4) / 1e4) }
