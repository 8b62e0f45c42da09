package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/batch"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/pipeline/overlay"
)

func init() {
	commands.Add("describe", "describe images in words (the default: caption IMAGE...)", runCaption)
}

const captionUsage = `Usage: caption [describe] [flags] IMAGE...
       caption [describe] [flags] DIR...

Describes each image in one sentence: the image encoder (MobileNet-EdgeTPU
for the default model) turns it into a 7×7 grid of features, and the
Show-Attend-Tell decoder says one word at a time while attending over the
grid, with beam search. With the default model the beam's 20 candidates
are then reranked by the embedded memory of the training photos: the
caption is the candidate that agrees best with the captions of the 10
training photos nearest this one, its own score counting too (-memory
none: the beam's best, of a beam of 3). "-" reads an image from standard input.

Files: each image gets one line: the caption, then, tab-separated, the
encoder's three most probable ImageNet classes ("labels: daisy 0.62,
…", from the same pass that gave the caption its features; absent for
cached features), the caption's confidence in [0, 1] and, with a memory,
the photo's familiarity (its cosine with the nearest training photo),
flagged "low confidence: this photo looks unlike the training photos"
when either is below 0.35, and "low confidence: the picture is nearly
one colour, with nothing in it to describe" when its colours hardly vary
(contrast below 0.02);
with several images the line starts with NAME<TAB>. -json (-format json)
prints one JSON object per image and line instead: the caption, its
words and token ids, confidence, familiarity, contrast, low_confidence and
its note, labels (label, prob),
the attention grid of every word (grid_h rows of grid_w weights α, over
the square input the image became: fit), the gate β of every word, and
the beam's alternatives with their log-probabilities,
length-normalized scores and, reranked, consensus. The search never says the same
-no-repeat-ngram words twice and ranks a word the caption already has
-repeat-penalty nats lower (0 turns either off); a beam ranks its
captions by log-probability / (words + 1)^α, α = -length-penalty.
An image that fails is named on stderr and the others are still
described; the exit status is then 1.

Batches: when an argument is a directory, or -o, --list, --out-dir,
--resume or --shard is given, the images are described as a batch by -j
workers sharing one decoder and the encoder's weights. Directories are
walked (recursively unless --recursive=false) for images, recognized by
content or extension; attention figures this tool wrote are passed over.
Each image gets one record (path, caption, words, error, model, seconds)
in -o FILE: JSONL (the caption, words, scores and figure in "result"),
or TSV or CSV by its extension or --output-format. With --format each
also gets a file of its own (txt: the caption; json: the result), next
to it or below --out-dir in a mirror of the tree (txt when only
--out-dir is given). With neither, JSONL records go to standard output.
A failed image is recorded with its reason and the others go on (exit
status 1). Outputs are never replaced unless --overwrite; --resume skips
the images already done and retries the failed ones. SIGINT or SIGTERM
finishes the images in flight and exits with status 130 (a second one
abandons them); resume to finish. --shard i/n keeps one of n disjoint
parts of the images, so n machines can split a collection; "caption
merge" joins their outputs. -j, --ordered, --recursive, --output-format,
--overwrite, --fail-fast and --quiet apply to batches only.

--overlay DIR also draws, for files and batches alike, each image's
attention figure into DIR as "caption overlay -dir" does with its
default look (a.jpg → DIR/a.png, the tree below a directory argument
mirrored); a batch records the figure's path. A figure never replaces an
input or a file it did not write, and never lands outside DIR.

The decoder is the embedded default model unless -model names another;
the encoder is -encoder, else $ATTEND_ENCODER, else the user cache, else
downloaded once and checked against its SHA-256. It must be the encoder
whose features the model was trained on, which the model file names
(MobileNet-EdgeTPU for the default model); -encoder takes a file or a known
encoder's name (mobilenet-v2, mobilenet-edgetpu). -cache names a feature
cache of "caption features": images whose file name it holds are
described from their cached features, without the encoder.

Flags:
`

const captionExamples = `
Examples:

	caption describe -model testdata/caption/tiny.safetensors -cache testdata/caption/features-7x7.safetensors testdata/caption/images/red-square.png
	caption describe -json -beam 2 -model testdata/caption/tiny.safetensors -cache testdata/caption/features-7x7.safetensors testdata/caption/images/red-square.png testdata/caption/images/blue-circle.png
	caption -model testdata/caption/tiny.safetensors -cache testdata/caption/features-7x7.safetensors --overlay /tmp/caption-attention testdata/caption/images/red-square.png
	caption -model testdata/caption/tiny.safetensors -cache testdata/caption/features-7x7.safetensors -j 2 --quiet --overlay /tmp/caption-attention testdata/caption/images > captions.jsonl

Recipes:

	caption photo.jpg
	caption -json -beam 5 photo.jpg
	caption -encoder ../shared/data/mobilenet-edgetpu/mobilenet_edgetpu_224_1.0_uint8.tflite *.jpg
	curl -s https://example.com/cat.jpg | caption -
	caption -o captions.jsonl photos/
	caption --resume -o captions.jsonl photos/
	caption --overlay attention/ -o captions.jsonl photos/
	caption --format json --out-dir captions/ photos/
	find photos -name '*.jpg' -print0 | caption --list - -o captions.tsv
	caption --resume --shard 3/8 -o out/shard-3.jsonl photos/
	caption merge -o captions.jsonl out/shard-*.jsonl
`

// formats are the -format values: of standard output for files, of the
// file per image for a batch.
var formats = []string{batch.SidecarTXT, batch.SidecarJSON}

func runCaption(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("describe", captionUsage, captionExamples, stderr)
	d := &description{stdin: stdin, stdout: stdout, stderr: stderr}
	o := &d.options
	search := captioning.DefaultSearchOptions()
	o.Search = &search
	fs.StringVar(&o.Model, "model", "", "caption model `file` (default: the embedded model)")
	fs.StringVar(&o.Encoder, "encoder", "", encoderFlagUsage)
	fs.StringVar(&o.Cache, "cache", "", "feature cache `file`: images it holds need no encoder")
	rerankFlags(fs, o, "beam width")
	fs.IntVar(&o.Search.MaxLength, "max-words", 30, "the most words a caption may have")
	searchFlags(fs, o.Search)
	allowUnk := fs.Bool("unk", false, "allow <unk> (a word too rare to be learned) in captions; by default the search never says it")
	fit := fs.String("fit", "squash", "how a photo becomes square: squash (as the training images were) or crop (center)")
	fs.StringVar(&d.format, "format", "txt", "output format: "+strings.Join(formats, ", ")+"; for a batch, the format of a file per image")
	asJSON := fs.Bool("json", false, "shorthand for -format json (for files: words, tokens, attention grids, β, alternatives)")
	maxPixelsFlag(fs, &o.MaxPixels)
	fs.StringVar(&d.overlay, "overlay", "", "also draw each image's attention figure into `dir`")
	bf := cli.Batch{Tool: "caption", Inputs: "images", Accept: overlay.AcceptImage, Formats: formats}
	bf.Register(fs)
	ok, err := cli.Parse(fs, args)
	if !ok {
		return err
	}
	formatSet := *asJSON
	fs.Visit(func(f *flag.Flag) { formatSet = formatSet || f.Name == "format" })
	if *asJSON {
		d.format = batch.SidecarJSON
	}
	if !slices.Contains(formats, d.format) {
		return cli.Usagef("-format %q: want one of %s", d.format, strings.Join(formats, ", "))
	}
	d.paths = fs.Args()
	if len(d.paths) == 0 && bf.List == "" {
		fs.Usage()
		return cli.Usagef("describe needs at least one image or directory")
	}
	if len(d.paths) > 0 && !looksLikeImage(d.paths[0]) {
		// "caption nope" reaches here as "caption describe nope": a word
		// that names neither a command nor a file is a mistyped command.
		return cli.Usagef("unknown command %q, and no image file of that name\nRun 'caption -h' for the commands.", d.paths[0])
	}
	if err := checkRerankFlags(o, 0); err != nil {
		return err
	}
	if o.MaxPixels < 1 {
		return cli.Usagef("-max-pixels %d: want at least 1", o.MaxPixels)
	}
	if o.Search.MaxLength < 1 {
		return cli.Usagef("-max-words %d: want at least 1", o.Search.MaxLength)
	}
	if err := checkSearchFlags(o.Search); err != nil {
		return err
	}
	o.Search.NoUnk = !*allowUnk
	if o.Fit, err = captiondata.ParseFit(*fit); err != nil {
		return cli.Usagef("-fit %q: want squash or crop", *fit)
	}
	o.Progress = stderr
	if !bf.Wanted(d.paths) {
		if err := bf.Refuse(fs); err != nil {
			return err
		}
		return d.files()
	}
	sidecar := ""
	if formatSet {
		sidecar = d.format
	}
	opts, err := bf.Options(sidecar)
	if err != nil {
		return err
	}
	return d.batch(&bf, opts)
}

// description is a describe command with its flags checked.
type description struct {
	paths          []string // the arguments
	options        captioning.CaptionerOptions
	format         string // -format: txt or json
	overlay        string // --overlay: the directory of the figures, or ""
	stdin          io.Reader
	stdout, stderr io.Writer
}

// files describes the images one after the other to stdout, and draws
// their figures into --overlay.
func (d *description) files() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := captioning.NewCaptioner(ctx, d.options)
	if err != nil {
		return err
	}
	defer c.Close()
	defer encoderHelp(c, d.stderr)
	var figures *figureDir
	if d.overlay != "" {
		if figures, err = openFigures(d.overlay, nil, c); err != nil {
			return err
		}
		defer figures.Close()
	}
	failed := 0
	for _, path := range d.paths {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		r, err := d.describe(c, figures, path)
		if err != nil {
			fmt.Fprintln(d.stderr, "caption:", maxPixelsHint(err))
			failed++
			continue
		}
		prefix := ""
		if len(d.paths) > 1 {
			prefix = path + "\t"
		}
		if err := captioning.WriteResult(d.stdout, r, d.format, prefix); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d images failed", cli.ErrReported, failed, len(d.paths))
	}
	return nil
}

// describe captions the image at path and, with figures, draws its
// figure over the image decoded to caption it. A figure that cannot be
// drawn or written is a warning: the caption stands.
func (d *description) describe(c *captioning.Captioner, figures *figureDir, path string) (*captioning.Result, error) {
	r, err := c.CaptionInput(context.Background(), &captioning.Input{Path: path, Stdin: d.stdin, KeepImage: figures != nil})
	if err != nil || figures == nil {
		return r, err
	}
	out, err := figures.Write(fileInput(path), r.Image, r)
	if err != nil {
		fmt.Fprintf(d.stderr, "caption: warning: no figure: %v\n", err)
		return r, nil
	}
	fmt.Fprintln(d.stderr, "caption: wrote", out)
	return r, nil
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

// encoderFlagUsage is the -encoder flag's help, for every command that
// captions.
const encoderFlagUsage = "encoder model `file`, or the name of a known encoder: mobilenet-v2 or mobilenet-edgetpu\n(default $ATTEND_ENCODER, then the user cache, then a download of the encoder the model needs)"

// encoderHelp says once, at the end of a run, how to provide the image
// encoder when it could not be found or downloaded (each image that
// needed it has failed saying why).
func encoderHelp(c *captioning.Captioner, stderr io.Writer) {
	k := c.NeededEncoder()
	if err := c.EncoderError(); errors.Is(err, captioning.ErrNoEncoder) && k != nil {
		fmt.Fprint(stderr, "caption: "+strings.ReplaceAll(strings.TrimSuffix(captioning.EncoderHelpFor(k), "\n"), "\n", "\ncaption: ")+"\n")
	}
}
