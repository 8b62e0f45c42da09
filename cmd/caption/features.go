package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/captioning"
)

const featuresUsage = `Usage: caption features [flags] DATASET

Runs the image encoder (the default model's, MobileNet-EdgeTPU, or another
with -encoder: a file, or the name mobilenet-v2, found in the user cache or
downloaded like the default) once over every image of a caption dataset
and stores the feature grids as float16 in one cache file, which training
reads an image at a time. DATASET is a Flickr8k directory
(captions.txt, train.txt, dev.txt, images/), a Karpathy split file
(dataset_flickr8k.json, dataset_coco.json), a COCO caption file
(captions_train2014.json; give -images) or a folder of images.

An interrupted extraction resumes: run the same command again and it checks
the records already written (CRC-32C) and extracts the rest. An existing
cache made from other images, or with another encoder or grid, is refused
and left alone. The cache is a safetensors file; its header records the
encoder's SHA-256, the grid and the image IDs in order.

-mirror flips every image left to right before encoding, for a second
cache that caption train -mirror-cache reads: each training caption is
then read with its image or its mirror image, at random ("left" and
"right" swapped with the mirror).

-n extracts nothing: it prints what the cache would hold, and how much of
an existing one is complete, without needing the encoder.

-json prints the result as one object. After an extraction: cache,
grid_h, grid_w, grid_d, bytes, elapsed_seconds, and the counts images,
extracted, reused, repaired and failed. With -n: dataset, images,
captions, cache, grid_h, grid_w, grid_d, record_bytes, bytes, and
existing: null, or the cache already there (records, complete, its grid,
encoder_sha256, and the problems extraction would have with it).

Flags:
`

const featuresExamples = `
Examples:

	caption features -n testdata/
	caption features -n -grid 14x14 -o images.safetensors testdata/
	caption features -n -json testdata/

Recipes:

	caption features -split train,dev -j 2 -o flickr8k-7x7.safetensors ../shared/data/flickr8k
	caption features -grid 14x14 -split train ../shared/data/flickr8k
	caption features -mirror -split train -o flickr8k-mirror-7x7.safetensors ../shared/data/flickr8k
	caption features -split train -images coco/images coco/dataset_coco.json
`

func init() {
	commands.Add("features", "extract image features of a caption dataset into a cache", runFeatures)
}

// featuresFlags are the command's settings.
type featuresFlags struct {
	grid, split, images, out, encoder, fit string
	workers                                int
	dryRun, json, mirror                   bool
}

func runFeatures(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("features", featuresUsage, featuresExamples, stderr)
	var o featuresFlags
	fs.StringVar(&o.grid, "grid", "7x7", "feature map: 7x7 (7×7×1280, the last) or 14x14 (block 13: 14×14×768 in MobileNet-EdgeTPU, 14×14×576 in MobileNetV2)")
	fs.StringVar(&o.split, "split", "", "split(s) to extract, comma-separated (train, dev, test, restval); empty means all")
	fs.StringVar(&o.images, "images", "", "directory of the image files (default: the dataset's own: images/ or the JSON file's directory)")
	fs.StringVar(&o.out, "o", "", "cache file (default DATASET-SPLIT-GRID.safetensors in the current directory)")
	fs.StringVar(&o.encoder, "encoder", "", "encoder model `file`, or the name of a known encoder: mobilenet-v2 or mobilenet-edgetpu\n(default $ATTEND_ENCODER, then the user cache, then a download of the default model's encoder, mobilenet-edgetpu)")
	fs.StringVar(&o.fit, "fit", "crop", "how non-square images become square: crop (center) or squash")
	fs.IntVar(&o.workers, "j", runtime.GOMAXPROCS(0), "images extracted at once, one goroutine each")
	fs.BoolVar(&o.mirror, "mirror", false, "flip every image left to right first: a second view of the training images for caption train -mirror-cache")
	fs.BoolVar(&o.dryRun, "n", false, "extract nothing; print what the cache would hold")
	fs.BoolVar(&o.json, "json", false, cli.JSONUsage)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return cli.Usagef("features needs one dataset, got %d arguments", fs.NArg())
	}
	dataset := fs.Arg(0)
	g, err := captiondata.ParseGrid(o.grid)
	if err != nil {
		return cli.Usagef("-grid %q: want 7x7 or 14x14", o.grid)
	}
	fit, err := captiondata.ParseFit(o.fit)
	if err != nil {
		return cli.Usagef("-fit %q: want crop or squash", o.fit)
	}
	if o.workers < 1 {
		return cli.Usagef("-j %d: want at least 1", o.workers)
	}
	if o.out == "" {
		o.out = defaultCacheName(dataset, o.split, o.grid)
	}

	images, err := captiondata.Read(dataset, o.split, o.images)
	if err != nil {
		return err
	}
	kind, _ := captiondata.Detect(dataset) // Read succeeded, so this does
	source := fmt.Sprintf("%s (%s", filepath.Base(filepath.Clean(dataset)), kind)
	if o.split != "" {
		source += ", split " + o.split
	}
	source += ")"
	if o.dryRun {
		g = captiondata.GridOf(g, o.encoder)
		if o.encoder == "" {
			g.D = captioning.DefaultEncoder().Depth(g.Grid)
		}
		plan, err := planCache(source, images, o.out, g)
		if err != nil {
			return err
		}
		if o.json {
			return cli.WriteJSON(stdout, plan)
		}
		plan.print(stdout)
		return nil
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	model, err := captiondata.LocateEncoder(ctx, o.encoder, captioning.DefaultEncoder(), stderr)
	if err != nil {
		return err
	}
	x, err := captiondata.LoadExtractor(model, &captiondata.ExtractorOptions{Grid: g.Grid, Fit: fit, Mirror: o.mirror})
	if err != nil {
		return err
	}
	start := time.Now()
	p := progress{w: stderr, start: start, every: 10 * time.Second}
	stats, err := captiondata.BuildCache(ctx, o.out, images, x, &captiondata.BuildOptions{
		Workers:  o.workers,
		Source:   source,
		Progress: p.report,
		Failed:   func(_ captiondata.Image, err error) { fmt.Fprintln(stderr, "caption:", err) },
	})
	elapsed := time.Since(start)
	switch {
	case stats.Images > 0 && o.json:
		s := x.Spec()
		built := struct {
			Cache string `json:"cache"`
			GridH int    `json:"grid_h"`
			GridW int    `json:"grid_w"`
			GridD int    `json:"grid_d"`
			Bytes int64  `json:"bytes,omitempty"` // left out if the file cannot be read
			captiondata.BuildStats
			Elapsed float64 `json:"elapsed_seconds"`
		}{Cache: o.out, GridH: s.H, GridW: s.W, GridD: s.D, BuildStats: stats, Elapsed: elapsed.Seconds()}
		if st, err := os.Stat(o.out); err == nil {
			built.Bytes = st.Size()
		}
		if err := cli.WriteJSON(stdout, built); err != nil {
			return err
		}
	case stats.Images > 0:
		rate := float64(stats.Extracted) / elapsed.Seconds()
		fmt.Fprintf(stdout, "%s: %d images, %s float16 (%s); %d extracted (%.1f images/s), %d already there, %d repaired, %d failed, in %v\n",
			o.out, stats.Images, x.Spec().GridString(), sizeOf(o.out), stats.Extracted, rate, stats.Reused, stats.Repaired, stats.Failed, elapsed.Round(time.Second))
	}
	if stats.Failed > 0 && errors.Is(err, captiondata.ErrIncomplete) {
		return fmt.Errorf("%w: %d of %d images failed; their records are incomplete", cli.ErrReported, stats.Failed, stats.Images)
	}
	return err
}

// cachePlan is what caption features -n prints: what a cache of a
// dataset's images would hold, and how far an existing one is.
type cachePlan struct {
	Dataset     string         `json:"dataset"` // its name, kind and splits
	Images      int            `json:"images"`
	Captions    int            `json:"captions"`
	Cache       string         `json:"cache"`
	GridH       int            `json:"grid_h"`
	GridW       int            `json:"grid_w"`
	GridD       int            `json:"grid_d"`
	RecordBytes int64          `json:"record_bytes"` // the float16 features of one image
	Bytes       int64          `json:"bytes"`        // of all the records
	Existing    *existingCache `json:"existing"`     // nil: there is no cache yet
}

// existingCache is how far the cache already at a plan's path is.
type existingCache struct {
	Records  int    `json:"records"`
	Complete int    `json:"complete"`
	GridH    int    `json:"grid_h"`
	GridW    int    `json:"grid_w"`
	GridD    int    `json:"grid_d"`
	Encoder  string `json:"encoder_sha256"`
	// Problems say why extraction would refuse the cache, or which of
	// the images it lacks.
	Problems []string `json:"problems"`
}

// planCache says what a cache of images at path with grid g would hold,
// and how far an existing one there is.
func planCache(source string, images []captiondata.Image, path string, g captiondata.GridChoice) (*cachePlan, error) {
	p := &cachePlan{Dataset: source, Images: len(images), Cache: path, GridH: g.H, GridW: g.W, GridD: g.D,
		RecordBytes: int64(g.H*g.W*g.D) * 2}
	for _, im := range images {
		p.Captions += len(im.Captions)
	}
	p.Bytes = p.RecordBytes * int64(len(images))
	c, err := captiondata.OpenCache(path)
	if errors.Is(err, os.ErrNotExist) {
		return p, nil
	}
	if err != nil {
		return nil, err
	}
	defer c.Close()
	s := c.Spec()
	p.Existing = &existingCache{Records: c.Len(), Complete: c.NumComplete(), GridH: s.H, GridW: s.W, GridD: s.D,
		Encoder: s.Encoder, Problems: []string{}}
	if s.H != g.H || s.W != g.W || s.D != g.D {
		p.Existing.Problems = append(p.Existing.Problems, "its grid differs from -grid: extraction would refuse it")
	}
	if err := c.CheckImages(images); err != nil {
		p.Existing.Problems = append(p.Existing.Problems, err.Error())
	}
	return p, nil
}

// print writes the plan for people.
func (p *cachePlan) print(w io.Writer) {
	fmt.Fprintf(w, "dataset %s: %d images, %d captions\n", p.Dataset, p.Images, p.Captions)
	fmt.Fprintf(w, "cache %s: %dx%dx%d float16, %s per image, about %s in all\n",
		p.Cache, p.GridH, p.GridW, p.GridD, byteSize(p.RecordBytes), byteSize(p.Bytes))
	e := p.Existing
	if e == nil {
		fmt.Fprintln(w, "the cache does not exist yet")
		return
	}
	fmt.Fprintf(w, "the cache exists: %d of %d records complete, grid %dx%dx%d, encoder SHA-256 %s\n",
		e.Complete, e.Records, e.GridH, e.GridW, e.GridD, e.Encoder)
	for _, s := range e.Problems {
		fmt.Fprintln(w, s)
	}
}

// defaultCacheName is DATASET-SPLIT-GRID.safetensors: the dataset's base
// name without extension, the splits joined by "+" ("all" for none).
func defaultCacheName(dataset, split, grid string) string {
	base := filepath.Base(filepath.Clean(dataset))
	base = strings.TrimSuffix(base, filepath.Ext(base))
	if split == "" {
		split = "all"
	}
	split = strings.ReplaceAll(strings.ReplaceAll(split, " ", ""), ",", "+")
	return fmt.Sprintf("%s-%s-%s.safetensors", base, split, grid)
}

// progress prints a line at most every so often while a cache fills.
type progress struct {
	w          io.Writer
	start      time.Time
	every      time.Duration
	last       time.Time
	first      int // complete when the run started
	firstKnown bool
}

func (p *progress) report(done, total int) {
	if !p.firstKnown {
		p.first, p.firstKnown, p.last = done, true, p.start
		return
	}
	now := time.Now()
	if now.Sub(p.last) < p.every && done < total {
		return
	}
	p.last = now
	rate := float64(done-p.first) / now.Sub(p.start).Seconds()
	left := ""
	if rate > 0 && done < total {
		left = fmt.Sprintf(", about %v left", (time.Duration(float64(total-done)/rate) * time.Second).Round(time.Second))
	}
	fmt.Fprintf(p.w, "features: %d/%d (%.1f%%), %.1f images/s%s\n", done, total, 100*float64(done)/float64(total), rate, left)
}

// sizeOf returns the size of a file, for people.
func sizeOf(path string) string {
	st, err := os.Stat(path)
	if err != nil {
		return "size unknown"
	}
	return byteSize(st.Size())
}

// byteSize formats n bytes with a binary unit.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
