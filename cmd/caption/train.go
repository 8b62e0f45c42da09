package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captioning"
)

func init() {
	commands.Add("train", "train a caption decoder on a dataset's cached image features", runTrain)
}

const trainUsage = `Usage: caption train -o DIR -cache FILE [flags] DATASET

Trains a Show-Attend-Tell caption decoder (an LSTM with soft, hard or
adaptive attention over the encoder's feature grid) with teacher forcing on the
captions of DATASET's -split images: a Flickr8k directory, a Karpathy
split file or a COCO caption file. The image features come from -cache,
built once by "caption features"; the vocabulary is the training
captions' words seen at least -min-count times.

After each epoch (or every -eval-every steps) the -dev images are
captioned (greedy, or -beam k) and scored: DIR/best.safetensors keeps the
model with the best dev BLEU-4 (-select cider: CIDEr-D); the learning
rate halves after -decay-patience evaluations without improvement and
training stops after -patience. -snapshots N keeps the weights of the N
latest evaluations as DIR/snapshot-STEP.safetensors, for "caption
average" to make one better model of them; -snapshot-every S adds one
every S optimizer steps between evaluations. DIR/last.safetensors is a
checkpoint written every few minutes and on Ctrl-C; -resume continues
from it. The log (loss, tokens/s, ETA, dev scores) goes to stderr and
DIR/train.log; the summary, to stdout (-json: one object with
best_model, best (the dev scores bleu, meteor, rougel, ciderd),
best_epoch, best_step, epochs, steps, train_images, train_captions,
skipped_captions, dev_images, vocab and stopped).

-scst fine-tunes a trained model (-init MODEL, soft or adaptive attention) by
self-critical sequence training: for each image it samples
-scst-samples captions, rewards each with its CIDEr-D against the
image's training references less the mean reward of the others, and
raises the likelihood of the captions that beat their baseline (Rennie
et al. 2017; Luo 2020). A batch holds -batch/-scst-samples images; an
epoch visits each training image once. Use a small -lr (5e-5), score dev
often with the search you will use (-beam 3 -eval-every 500): dev peaks
early (500 steps for the default model) and then falls as the model fits
the training references. Label smoothing and the attention penalty are
turned off; -dropout 0 keeps the trained captions those sampled.

Flags:
`

const trainExamples = `
Examples:

	caption train -overwrite -o /tmp/caption-tiny -cache testdata/caption/features-7x7.safetensors -tiny -min-count 1 -batch 4 -epochs 2 -snapshots 1 testdata/caption
	caption train -scst -init testdata/caption/tiny.safetensors -scst-samples 2 -batch 4 -epochs 1 -lr 1e-4 -overwrite -o /tmp/caption-scst-tiny -cache testdata/caption/features-7x7.safetensors testdata/caption

Recipes:

	# the default model (see docs/training-caption.md); on a shared
	# machine bound its memory with GOMEMLIMIT=6GiB (each graph holds up to 0.7 GB)
	caption features -split train,dev -o flickr8k-7x7.safetensors ../shared/data/flickr8k
	caption train -o runs/caption-soft -cache flickr8k-7x7.safetensors -lr 1e-3 -eval-every 470 -patience 8 -max-words 22 ../shared/data/flickr8k
	caption train -o runs/caption-soft -resume -cache flickr8k-7x7.safetensors -lr 1e-3 -eval-every 470 -patience 8 -max-words 22 ../shared/data/flickr8k
	# hard (stochastic) attention, from scratch or started from a soft model
	caption train -o runs/caption-hard -attention hard -cache flickr8k-7x7.safetensors ../shared/data/flickr8k
	caption train -o runs/caption-hard -attention hard -init runs/caption-soft/best.safetensors -lr 5e-4 -eval-every 470 -max-words 22 -cache flickr8k-7x7.safetensors ../shared/data/flickr8k
	# adaptive attention with a visual sentinel: per word, whether to look at all
	caption train -o runs/caption-adaptive -attention adaptive -cache flickr8k-7x7.safetensors -lr 1e-3 -eval-every 470 -patience 8 -max-words 22 ../shared/data/flickr8k
	# then self-critical fine-tuning on CIDEr-D; export runs/scst/best.safetensors
	caption train -o runs/scst -scst -init runs/caption-soft/best.safetensors -lr 5e-5 -dropout 0 -beam 3 -eval-every 500 -max-words 22 -cache flickr8k-7x7.safetensors ../shared/data/flickr8k
`

func runTrain(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("train", trainUsage, trainExamples, stderr)
	o := captioning.TrainOptions{Setup: captioning.TrainDefaults()}
	cli.TrainFlags(fs, &o.Setup, trainText)
	cfg := captioning.DefaultModelConfig()
	fs.StringVar(&o.Cache, "cache", "", "feature cache `file` of the train and dev images, from \"caption features\" (required)")
	fs.StringVar(&o.MirrorCache, "mirror-cache", "", "feature cache `file` of the training images flipped left to right (\"caption features -mirror\"): each caption is read with its image or, at random, the mirror image")
	fs.StringVar(&o.TrainSplit, "split", "train", "training split(s), comma-separated")
	fs.StringVar(&o.DevSplit, "dev", "dev", "dev split scored after each epoch")
	fs.StringVar(&o.DevDataset, "dev-dataset", "", "read the dev split from this dataset instead (a COCO val file)")
	fs.StringVar(&o.Images, "images", "", "directory of the image files (default: the dataset's own)")
	fs.IntVar(&o.MinCount, "min-count", 5, "words seen fewer times in the training captions become <unk>")
	fs.IntVar(&o.MaxWords, "max-words", 30, "skip training captions longer than this")
	fs.IntVar(&o.MaxDev, "max-dev", 0, "score at most this many dev images (0: all)")
	fs.IntVar(&o.EvalEvery, "eval-every", 0, "score dev every this many steps (0: after each epoch)")
	fs.StringVar(&o.Select, "select", captioning.SelectBLEU4, "dev metric that picks the best model: bleu4 or cider")
	fs.IntVar(&o.Beam, "beam", 1, "beam width of the dev search (1: greedy)")
	fs.IntVar(&o.DecayPatience, "decay-patience", o.DecayPatience, "halve the learning rate after this many evaluations without improvement")
	fs.IntVar(&o.MaxGraphs, "max-graphs", o.MaxGraphs, "compiled training graphs kept in memory (one per batch shape; each holds hundreds of MB)")
	fs.IntVar(&o.StepRound, "step-round", 4, "round each batch's decoder steps up to a multiple of this (fewer graphs)")
	fs.BoolVar(&o.SCST, "scst", false, "fine-tune the -init model by self-critical sequence training on CIDEr-D (soft attention)")
	fs.IntVar(&o.SCSTSamples, "scst-samples", 5, "with -scst, captions sampled per image (at least 2)")
	fs.IntVar(&o.Accumulate, "accumulate", 1, "run each batch as this many sub-batches one after another, adding their gradients (a batch's memory divided by it; 2 takes the very steps of a 2-rank -mpi run)")
	fs.StringVar(&cfg.Attention, "attention", captioning.Soft, "attention: soft (deterministic), hard (stochastic, REINFORCE) or adaptive (soft with a visual sentinel: per word, whether to look; no gate β)")
	fs.IntVar(&cfg.Embed, "embed", 256, "word embedding width")
	fs.IntVar(&cfg.Hidden, "hidden", 512, "LSTM units")
	fs.IntVar(&cfg.AttentionDim, "attention-dim", 256, "attention hidden width")
	fs.Float64Var(&cfg.Dropout, "dropout", 0.5, "dropout before the output layers (0: none)")
	fs.Float64Var(&cfg.DoublyStochastic, "penalty", 1, "weight λ of the doubly stochastic attention penalty (0: none)")
	fs.Float64Var(&cfg.LabelSmoothing, "label-smoothing", 0, "label smoothing ε")
	noGate := fs.Bool("no-gate", false, "turn the context gate β off")
	tiny := fs.Bool("tiny", false, "a tiny model for smoke tests (8 units per layer)")
	mpiJob := cli.MPIFlags(fs)
	asJSON := cli.JSONFlag(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if err := cli.CheckTrain(&o.Setup); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 1:
		return cli.Usagef("train needs one dataset, got %d arguments", fs.NArg())
	case o.Select != captioning.SelectBLEU4 && o.Select != captioning.SelectCIDErD:
		return cli.Usagef("-select %q: want bleu4 or cider", o.Select)
	case o.SCST && o.Init == "" && !o.Resume:
		return cli.Usagef("-scst fine-tunes a trained model: give -init MODEL (or -resume)")
	case o.SCST && o.MirrorCache != "":
		return cli.Usagef("-mirror-cache is for cross-entropy training, not -scst")
	case o.SCST && o.SCSTSamples < 2:
		return cli.Usagef("-scst-samples %d: want at least 2", o.SCSTSamples)
	case o.SCST && cfg.Attention == captioning.Hard:
		return cli.Usagef("-scst supports soft and adaptive attention, not -attention hard")
	case o.Accumulate < 1:
		return cli.Usagef("-accumulate %d: want 1 or more sub-batches", o.Accumulate)
	case o.SCST && o.Accumulate > 1:
		return cli.Usagef("-accumulate covers cross-entropy training only, not -scst")
	case o.SCST && mpiJob.On:
		return cli.Usagef("-scst runs in one process: -mpi covers cross-entropy training only")
	}
	o.Dataset = fs.Arg(0)
	// Adaptive attention has no gate β: its sentinel weight does that work.
	cfg.NoGate = *noGate || cfg.Attention == captioning.Adaptive
	if cfg.Attention == captioning.Hard {
		cfg.Hard = captioning.DefaultHardConfig()
	}
	if *tiny {
		cfg.Embed, cfg.Hidden, cfg.AttentionDim = 8, 8, 8
	}
	if o.Init != "" {
		if *tiny {
			return cli.Usagef("-tiny sizes a new model; -init starts from a trained one")
		}
		o.Reconfigure = initSettings(fs, cfg)
	}
	check := cfg
	check.Vocab = 5
	if err := check.Defaults().Validate(); err != nil {
		return cli.Usagef("%v", err)
	}
	o.Config = cfg
	o.Log = stderr
	if err := mpiJob.Join(&o.Setup); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := captioning.Train(ctx, o)
	if err != nil {
		err = cli.TrainError(err)
	}
	if err := mpiJob.End(err, "caption train", stderr); err != nil || !mpiJob.Lead() {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, sum)
	}
	fmt.Fprintf(stdout, "best model: %s (dev %v at epoch %d; %s)\n", sum.BestPath, sum.Best, sum.BestEpoch, sum.Stopped)
	return nil
}

// initSettings returns the edit that, with -init, puts the settings given
// on the command line into the model file's config (the kind of
// attention and the training settings; a size that differs from the
// file's is an error): the flags' defaults must not silently replace
// what the file holds.
func initSettings(fs *flag.FlagSet, cfg captioning.ModelConfig) func(*captioning.ModelConfig) {
	return func(c *captioning.ModelConfig) {
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "attention":
				if cfg.Attention != c.Attention {
					c.Attention, c.Hard = cfg.Attention, cfg.Hard
				}
			case "embed":
				c.Embed = cfg.Embed
			case "hidden":
				c.Hidden = cfg.Hidden
			case "attention-dim":
				c.AttentionDim = cfg.AttentionDim
			case "dropout":
				c.Dropout = cfg.Dropout
			case "penalty":
				c.DoublyStochastic = cfg.DoublyStochastic
			case "label-smoothing":
				c.LabelSmoothing = cfg.LabelSmoothing
			case "no-gate":
				c.NoGate = cfg.NoGate
			}
		})
	}
}

// trainText is what caption train's shared training flags say of its own.
var trainText = cli.TrainText{
	Command: "caption", Examples: "captions", Patience: "evaluations without a better dev score",
	InitNote: "; only the settings given as flags change, e.g. -attention hard starts a hard-attention model from a soft one",
	Workers:  "goroutines decoding dev",
	BF16:     "run the matrix products in bfloat16 with float32 sums, on CPUs with AVX512_BF16 (Zen 4, Sapphire Rapids; an error elsewhere): faster steps, weights stay float32",
	Seed:     "initialization, batches, dropout, SCST samples",
}
