package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/internal/input"
	"github.com/attend-go/attend/pipeline/batch"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/pipeline/overlay"
)

func init() {
	commands.Add("overlay", "draw where the model looked for each word of its caption", runOverlay)
}

const overlayUsage = `Usage: caption overlay [flags] IMAGE... -o FILE | -dir DIR

Captions each image and draws, for each word, the attention with which the
decoder said it: the image first, in its own shape, then one panel per word
with that word's attention weights smoothly upsampled over the photo,
colored and blended, the word and its largest weight underneath (and its
gate β with -beta; for a model with adaptive attention, its sentinel
weight, with a bar along the panel's foot filled to 1 − that weight: how
much the word looked), in rows of -columns tiles, under the caption and
over a colorbar. -format gif makes an animation instead, one word per frame.

-o FILE writes the figure of one image ("-" writes it to standard output);
the format follows the name (.gif) unless -format says. -dir DIR writes one
figure per image into DIR, named after the image: a.jpg → DIR/a.png, and
below a directory argument the tree is mirrored (photos/trip/b.jpg →
DIR/trip/b.png). A figure never replaces an input, never lands outside DIR
(symbolic links included), and never replaces a file that is not a figure
of an earlier run. Directories are walked for images, skipping figures.
Flags may come before or after the images.

-word K draws only the K-th word (from 1); -words takes positions and
words, comma-separated (-words 2,dog draws the second word and every
"dog"). -peak outlines each word's most attended cell (dashed); for a
hard-attention model decoding with the argmax, the cell the decoder read is
outlined solid.

The model, encoder, cache, beam and fit are those of "caption describe".
The attention grid is placed on the part of the photo the encoder saw:
all of it with -fit squash (the default), its central square with -fit
crop, the rest then drawn gray.

Flags:
`

const overlayExamples = `
Examples:

	caption overlay -model testdata/caption/tiny.safetensors -cache testdata/caption/features-7x7.safetensors -o /tmp/red-square-attention.png testdata/caption/images/red-square.png
	caption overlay -model testdata/caption/tiny.safetensors -cache testdata/caption/features-7x7.safetensors -format gif -word 1 -colormap viridis -o /tmp/red-square-attention.gif testdata/caption/images/red-square.png
	caption overlay -model testdata/caption/tiny.safetensors -cache testdata/caption/features-7x7.safetensors -dir /tmp/attention -peak -columns 3 testdata/caption/images

Recipes:

	caption overlay photo.jpg -o photo-attention.png
	caption overlay -words dog,ball -colormap mask -size 320 photo.jpg -o dog.png
	caption overlay -format gif photo.jpg -o photo.gif
	caption overlay -dir attention/ -encoder ../shared/data/mobilenet-edgetpu/mobilenet_edgetpu_224_1.0_uint8.tflite ../shared/data/flickr8k/images
`

// overlayFlags are the command's settings.
type overlayFlags struct {
	out, dir, format, colormap, smoothing, scale, words, fit string
	word                                                     int
	draw                                                     overlay.Options
	caption                                                  captioning.CaptionerOptions
}

func runOverlay(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("overlay", overlayUsage, overlayExamples, stderr)
	var f overlayFlags
	search := captioning.DefaultSearchOptions()
	f.caption.Search = &search
	o := &f.draw
	fs.StringVar(&f.out, "o", "", "write the figure of one image to this `file` (- for standard output)")
	fs.StringVar(&f.dir, "dir", "", "write one figure per image into this `directory`, named after the image")
	fs.StringVar(&f.format, "format", "", "png (one picture), jpg (the same, smaller) or gif (one word per frame); default: from -o's extension, else png")
	fs.StringVar(&f.caption.Model, "model", "", "caption model `file` (default: the embedded model)")
	fs.StringVar(&f.caption.Encoder, "encoder", "", encoderFlagUsage)
	fs.StringVar(&f.caption.Cache, "cache", "", "feature cache `file`: images it holds need no encoder")
	rerankFlags(fs, &f.caption, "beam width")
	maxPixelsFlag(fs, &f.caption.MaxPixels)
	allowUnk := fs.Bool("unk", false, "allow <unk> (a word too rare to be learned) in captions; by default the search never says it")
	fs.StringVar(&f.fit, "fit", "squash", "how a photo becomes the encoder's square: squash (all of it) or crop (the central square)")
	fs.IntVar(&f.word, "word", 0, "draw only the `K`-th word (from 1)")
	fs.StringVar(&f.words, "words", "", "draw only these words: comma-separated positions (from 1) and words")
	fs.StringVar(&f.colormap, "colormap", "inferno", "inferno, viridis, turbo, or mask (darken what was not looked at)")
	fs.Float64Var(&o.Alpha, "alpha", 0, "strength of the overlay in (0, 1] (default 0.7; 0.8 for mask)")
	fs.StringVar(&f.smoothing, "smoothing", "bilinear", "how the grid is upsampled: bilinear, gaussian (Xu et al.'s look) or nearest (the grid)")
	fs.StringVar(&f.scale, "scale", "panel-max", "which weight gets the top color: panel-max, shared (compare words) or absolute (1)")
	fs.IntVar(&o.Columns, "columns", overlay.DefaultColumns, "tiles per row, the image included")
	fs.IntVar(&o.Size, "size", overlay.DefaultSize, "long side of each tile in `pixels`")
	fs.BoolVar(&o.Beta, "beta", false, "write each word's gate β under its panel")
	fs.BoolVar(&o.Peak, "peak", false, "outline each word's most attended cell")
	fs.BoolVar(&o.NoLegend, "no-legend", false, "leave out the colorbar")
	fs.IntVar(&o.Delay, "delay", overlay.DefaultDelay, "time each GIF frame shows, in hundredths of a second")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	images := fs.Args()
	if err := f.check(fs, images); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	f.caption.Progress = stderr
	f.caption.Search.NoUnk = !*allowUnk
	c, err := captioning.NewCaptioner(ctx, f.caption)
	if err != nil {
		return err
	}
	defer c.Close()
	defer encoderHelp(c, stderr)
	if f.out != "" {
		return overlayOne(c, &f, images[0], stdin, stdout, stderr)
	}
	return overlayDir(ctx, c, &f, images, stdin, stdout, stderr)
}

// check validates the flags, turning names into values, and says which
// usage errors there are.
func (f *overlayFlags) check(fs *flag.FlagSet, images []string) error {
	o := &f.draw
	var err error
	if err := checkRerankFlags(&f.caption, 0); err != nil {
		return err
	}
	switch {
	case len(images) == 0:
		fs.Usage()
		return cli.Usagef("overlay needs at least one image")
	case f.out == "" && f.dir == "":
		return cli.Usagef("say where the figures go: -o FILE (one image) or -dir DIR")
	case f.out != "" && f.dir != "":
		return cli.Usagef("-o and -dir exclude each other")
	case f.out != "" && len(images) > 1:
		return cli.Usagef("-o names one figure, for one image; with %d images use -dir DIR", len(images))
	case f.word != 0 && f.words != "":
		return cli.Usagef("-word and -words exclude each other")
	case f.word < 0:
		return cli.Usagef("-word %d: words are numbered from 1", f.word)
	case f.caption.MaxPixels < 1:
		return cli.Usagef("-max-pixels %d: want at least 1", f.caption.MaxPixels)
	case o.Columns < 1:
		return cli.Usagef("-columns %d: want at least 1", o.Columns)
	case o.Size < 16 || o.Size > overlay.MaxSize:
		return cli.Usagef("-size %d: want 16..%d pixels", o.Size, overlay.MaxSize)
	case !(o.Alpha >= 0 && o.Alpha <= 1):
		return cli.Usagef("-alpha %v: want a value in (0, 1]", o.Alpha)
	case o.Delay < 1 || o.Delay > 65535:
		return cli.Usagef("-delay %d: want 1..65535 hundredths of a second", o.Delay)
	}
	o.Select = f.words
	if f.word > 0 {
		o.Select = strconv.Itoa(f.word)
	}
	var outFormat overlay.Format
	if f.out != "" && f.out != "-" {
		if outFormat, err = overlay.FormatOf(f.out); err != nil {
			return cli.Usagef("-o %s: a figure is .png, .gif (one word per frame) or .jpg; or say -format", f.out)
		}
	}
	switch {
	case f.format != "":
		if o.Format, err = overlay.ParseFormat(f.format); err != nil {
			return cli.Usagef("-format %q: want png, gif or jpg", f.format)
		}
		if outFormat != "" && outFormat != o.Format && filepath.Ext(f.out) != "" {
			return cli.Usagef("-format %s, but -o %s names another format", o.Format, f.out)
		}
	case outFormat != "":
		o.Format = outFormat
	}
	if o.Colormap, err = overlay.ParseColormap(f.colormap); err != nil {
		return cli.Usagef("-colormap %q: want turbo, viridis, inferno or mask", f.colormap)
	}
	if o.Smoothing, err = overlay.ParseSmoothing(f.smoothing); err != nil {
		return cli.Usagef("-smoothing %q: want bilinear, gaussian or nearest", f.smoothing)
	}
	if o.Scale, err = overlay.ParseScale(f.scale); err != nil {
		return cli.Usagef("-scale %q: want panel-max, shared or absolute", f.scale)
	}
	if f.caption.Fit, err = captiondata.ParseFit(f.fit); err != nil {
		return cli.Usagef("-fit %q: want squash or crop", f.fit)
	}
	if f.out != "" && f.out != "-" {
		if err := overlay.CheckOutput(f.out, images[0]); err != nil {
			return err
		}
	}
	return nil
}

// overlayOne captions one image and writes its figure to -o.
func overlayOne(c *captioning.Captioner, f *overlayFlags, path string, stdin io.Reader, stdout, stderr io.Writer) error {
	r, err := c.CaptionInput(context.Background(), &captioning.Input{Path: path, Stdin: stdin, KeepImage: true})
	if err != nil {
		return maxPixelsHint(err)
	}
	capt := overlay.FromResult(r, c.Model.Config)
	if f.out == "-" {
		if err := overlay.Encode(stdout, r.Image, &capt, &f.draw); err != nil {
			return fmt.Errorf("%s: %w", input.DisplayName(path), err)
		}
		return nil
	}
	if err := overlay.Write(f.out, r.Image, &capt, &f.draw); err != nil {
		return fmt.Errorf("%s: %w", input.DisplayName(path), err)
	}
	fmt.Fprintln(stdout, capt.Text())
	fmt.Fprintln(stderr, "caption: wrote", f.out)
	return nil
}

// overlayDir captions every image (directories walked) and writes their
// figures into -dir, going on past failures: a batch of one worker whose
// figures are required, printing PATH<TAB>caption.
func overlayDir(ctx context.Context, c *captioning.Captioner, f *overlayFlags, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	inputs, err := overlayInputs(args)
	if err != nil {
		return err
	}
	figures, err := openFigures(f.dir, &f.draw, c)
	if err != nil {
		return err
	}
	defer figures.Close()
	process := c.Processor(&captioning.BatchOptions{Figures: figures, FiguresRequired: true, Stdin: stdin})
	failed := 0
	for _, in := range inputs {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		res, err := process(ctx, in)
		if err != nil {
			fmt.Fprintln(stderr, "caption:", maxPixelsHint(err))
			failed++
			continue
		}
		fmt.Fprintf(stdout, "%s\t%s\n", in.Path, res.Text)
	}
	fmt.Fprintf(stderr, "caption: wrote %d figures into %s\n", len(inputs)-failed, f.dir)
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d images failed", cli.ErrReported, failed, len(inputs))
	}
	return nil
}

// overlayInputs expands the arguments of -dir: directories are walked
// for images (skipping figures), "-" is standard input.
func overlayInputs(args []string) ([]batch.Input, error) {
	var inputs []batch.Input
	for _, a := range args {
		if a == "-" {
			inputs = append(inputs, batch.Input{Path: "-", Root: "."})
			continue
		}
		col, err := batch.Collect([]string{a}, &batch.CollectOptions{Accept: overlay.AcceptImage})
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, col.Inputs...)
	}
	return inputs, nil
}
