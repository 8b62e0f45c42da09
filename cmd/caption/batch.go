package main

import (
	"context"
	"image"
	"path/filepath"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/batch"
	"github.com/attend-go/attend/pipeline/captioning"
	"github.com/attend-go/attend/pipeline/overlay"
)

// batch finds the images and describes them with package batch, one
// worker state per worker over one shared Captioner, into the outputs of
// opts, drawing their figures into --overlay.
func (d *description) batch(b *cli.Batch, opts *batch.Options) error {
	inputs, err := b.Collect(d.paths, d.stdin, d.stderr)
	if err != nil {
		return err
	}
	// The Captioner's context only stops locating (downloading) the
	// encoder; the batch handles SIGINT and SIGTERM itself, finishing the
	// images in flight.
	c, err := captioning.NewCaptioner(context.Background(), d.options)
	if err != nil {
		return err
	}
	defer c.Close()
	defer encoderHelp(c, d.stderr)
	var bo captioning.BatchOptions
	if d.overlay != "" {
		figures, err := openFigures(d.overlay, nil, c)
		if err != nil {
			return err
		}
		defer figures.Close()
		bo.Figures = figures
	}
	opts.Model, opts.Stdout, opts.Stderr = captioning.ModelID(d.options.Model), d.stdout, d.stderr
	return b.Run(inputs, withHint(captioning.BatchFactory(c, &bo)), opts)
}

// withHint adds maxPixelsHint to the errors of factory's processors.
func withHint(factory batch.Factory) batch.Factory {
	return func(worker int) (batch.Processor, error) {
		p, err := factory(worker)
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, in batch.Input) (batch.Result, error) {
			res, err := p(ctx, in)
			return res, maxPixelsHint(err)
		}, nil
	}
}

// figureDir draws attention figures into an overlay.Dir: the
// captioning.Figures of a batch and of "caption overlay -dir", and the
// figures of --overlay for files.
type figureDir struct {
	dir    *overlay.Dir
	config captioning.ModelConfig // the decoder's, for hard attention's cells
}

// openFigures opens dir for figures drawn with opts (nil: the default
// look).
func openFigures(dir string, opts *overlay.Options, c *captioning.Captioner) (*figureDir, error) {
	d, err := overlay.OpenDir(dir, opts)
	if err != nil {
		return nil, err
	}
	return &figureDir{dir: d, config: c.Model.Config}, nil
}

func (f *figureDir) Close() error { return f.dir.Close() }

// Path returns where the figure of in goes, or why it cannot go there.
func (f *figureDir) Path(in batch.Input) (string, error) { return f.dir.Path(in.Root, in.Path) }

// Write draws r's attention over img, the image of in.
func (f *figureDir) Write(in batch.Input, img image.Image, r *captioning.Result) (string, error) {
	capt := overlay.FromResult(r, f.config)
	return f.dir.Write(in.Root, in.Path, img, &capt)
}

// fileInput is an image named as an argument, as a batch would take it:
// its figure goes straight into the directory.
func fileInput(path string) batch.Input {
	return batch.Input{Path: path, Root: filepath.Dir(path)}
}
