package main

import (
	"fmt"
	"io"
	"path/filepath"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captiondata"
	"github.com/attend-go/attend/pipeline/captioning"
)

const memoryUsage = `Usage: caption memory -cache FILE -o MEMORY [flags] DATASET

Builds the memory that reranks a caption model's candidates by consensus
with the training set (Devlin et al. 2015): for every image of DATASET's
-split, a key made from its cached features (the mean annotation,
projected to -dims values) and its reference captions. With it, caption
and caption eval -memory caption a photo by beam search, find the
training images nearest the photo and keep the candidate that agrees
best (CIDEr-D) with their captions, plus a little of its own
log-probability. The cache must hold features of the encoder the model
was trained on; build the memory from the model's training split only,
never from the images it is evaluated on.

Flags:
`

const memoryExamples = `
Examples:

	caption memory -cache testdata/caption/features-7x7.safetensors -split train -o /tmp/memory.safetensors testdata/caption

Recipes:

	caption memory -cache flickr8k-et-7x7.safetensors -split train -o memory.safetensors ../shared/data/flickr8k
	caption eval -memory memory.safetensors -beams 10 -split dev -cache flickr8k-et-7x7.safetensors ../shared/data/flickr8k
`

func init() {
	commands.Add("memory", "build the training-set memory that reranks captions by consensus", runMemory)
}

func runMemory(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("memory", memoryUsage, memoryExamples, stderr)
	cache := fs.String("cache", "", "feature cache `file` holding the split's images (required)")
	split := fs.String("split", "train", "split(s) whose images and captions the memory holds, comma-separated")
	images := fs.String("images", "", "directory of the image files (default: the dataset's own)")
	out := fs.String("o", "", "memory `file` to write (required)")
	dims := fs.Int("dims", 256, "values per key: the mean annotation is projected to this many (its depth or more: not projected)")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	switch {
	case fs.NArg() != 1:
		return cli.Usagef("memory needs one dataset, got %d arguments", fs.NArg())
	case *cache == "":
		return cli.Usagef("memory needs -cache FILE (build one with: caption features -split %s -o FILE %s)", *split, fs.Arg(0))
	case *out == "":
		return cli.Usagef("memory needs -o FILE")
	case *dims < 1:
		return cli.Usagef("-dims %d: want at least 1", *dims)
	}
	if err := cli.CheckWritable(*out, "-o"); err != nil {
		return err
	}
	set, err := captiondata.Read(fs.Arg(0), *split, *images)
	if err != nil {
		return err
	}
	c, err := captiondata.OpenCache(*cache)
	if err != nil {
		return err
	}
	defer c.Close()
	m, err := captioning.BuildMemory(set, c, *dims)
	if err != nil {
		return err
	}
	m.Config.Source = fmt.Sprintf("%s, split %s", filepath.Base(filepath.Clean(fs.Arg(0))), *split)
	if err := m.WriteFile(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d images, keys of %d values, from %s\n", *out, m.Config.Images, m.Config.KeyDim, *cache)
	return nil
}
