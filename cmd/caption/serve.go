package main

import (
	"context"
	"image"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/pipeline/server"
)

func init() {
	commands.Add("serve", "serve a captioning API and a page that shows where the model looked for each word", runServe)
}

const serveUsage = `Usage: caption serve [flags]

Serves image captioning over HTTP on -addr (127.0.0.1:8081), with the
model, encoder and search flags of "caption describe":

	POST /v1/captions   the image in the multipart part "file" or as the
	                    whole body; beam (1..30) and alternatives as form
	                    fields or in the query string. Answers the caption,
	                    the beam's alternatives, per word the attention
	                    grid and the gate β, the encoder's labels and the
	                    confidence, as "caption -json" prints them
	GET  /              a page: drop or choose a photo, see its caption,
	                    alternatives, labels and confidence (it says so
	                    when the confidence is low); hover or focus a word
	                    to see its attention over the photo, in the
	                    colormaps and smoothings of "caption overlay"
	GET  /healthz, /v1/models

Errors are OpenAI-style {"error": {...}} with status 400, 413 (over
-max-mb or -max-pixels), 415 (not an image), 429 (queue full) or 503
(timed out).

The encoder is located and loaded before the server starts listening
(-warm=false waits for the first image). -j requests are worked on at
once (they share the encoder, which encodes one image at a time) and
-queue more may wait; uploads stay in memory and no request can name a
file on the server. SIGINT or SIGTERM stops accepting, finishes the
requests in flight and exits. Listening on a loopback address (the
default), the server answers only requests addressed to localhost or a
loopback IP.

` + cli.ServeGuards + `
Flags:
`

const serveExamples = `
Examples:

	caption serve -check -warm=false -addr 127.0.0.1:0 -model testdata/caption/tiny.safetensors

Recipes:

	caption serve
	ATTEND_API_KEY=$(openssl rand -hex 16) caption serve -addr 0.0.0.0:8081
	caption serve -encoder ../shared/data/mobilenet-edgetpu/mobilenet_edgetpu_224_1.0_uint8.tflite -beam 5
	curl -s http://127.0.0.1:8081/v1/captions -F file=@testdata/photos/chelsea.jpg
	curl -s 'http://127.0.0.1:8081/v1/captions?beam=5&alternatives=3' --data-binary @testdata/photos/coffee.jpg -H 'Content-Type: image/jpeg'
`

func runServe(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("serve", serveUsage, serveExamples, stderr)
	var sf cli.Serve
	sf.Register(fs, "127.0.0.1:8081")
	var o captioning.CaptionerOptions
	search := captioning.DefaultSearchOptions()
	o.Search = &search
	fs.StringVar(&o.Model, "model", "", "caption model `file` (default: the embedded model)")
	fs.StringVar(&o.Encoder, "encoder", "", encoderFlagUsage)
	rerankFlags(fs, &o, "beam width when a request names none")
	fs.IntVar(&o.Search.MaxLength, "max-words", 30, "the most words a caption may have")
	searchFlags(fs, o.Search)
	allowUnk := fs.Bool("unk", false, "allow <unk> (a word too rare to be learned) in captions")
	fit := fs.String("fit", "squash", "how a photo becomes square: squash (as the training images were) or crop (center)")
	maxPixels := fs.Int64("max-pixels", 0, "largest image (width × height) a request may hold (default: the decoder's limit, 50 megapixels)")
	warm := fs.Bool("warm", true, "load the encoder before listening")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if fs.NArg() > 0 {
		return cli.Usagef("serve takes no arguments (got %s)", strings.Join(fs.Args(), " "))
	}
	if err := checkRerankFlags(&o, server.MaxBeam); err != nil {
		return err
	}
	if o.Search.MaxLength < 1 {
		return cli.Usagef("-max-words %d: want at least 1", o.Search.MaxLength)
	}
	if err := checkSearchFlags(o.Search); err != nil {
		return err
	}
	if *maxPixels < 0 {
		return cli.Usagef("-max-pixels %d: want a positive count (or 0 for the default)", *maxPixels)
	}
	var err error
	if o.Fit, err = captiondata.ParseFit(*fit); err != nil {
		return cli.Usagef("-fit %q: want squash or crop", *fit)
	}
	o.Search.NoUnk, o.Progress = !*allowUnk, stderr
	opts, err := sf.Options(stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := captioning.NewCaptioner(ctx, o)
	if err != nil {
		return err
	}
	defer c.Close()
	if *warm {
		// Captioning a blank image locates (or downloads) and loads the
		// encoder now, so that a missing one stops the server at once.
		blank := image.NewGray(image.Rect(0, 0, 224, 224))
		for i := range blank.Pix {
			blank.Pix[i] = 128
		}
		if _, err := c.CaptionImage(blank); err != nil {
			return err
		}
	}
	srv, err := server.NewCaption(server.CaptionConfig{Captioner: c, ModelID: captioning.ModelID(o.Model), Beam: c.Beam(), MaxPixels: *maxPixels}, opts)
	if err != nil {
		return err
	}
	stop() // sf.Run watches the signals from here on
	return sf.Run("caption", srv, stdout, stderr)
}
