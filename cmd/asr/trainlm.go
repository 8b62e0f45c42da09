package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/attend-go/attend/pipeline/cli"
	"github.com/attend-go/attend/pipeline/speech"
)

func init() {
	commands.Add("train-lm", "train a character language model for beam search (shallow fusion)", runTrainLM)
}

const trainLMUsage = `Usage: asr train-lm -o OUT [flags] TEXTFILE...

Trains a character-level LSTM language model on plain text (one sentence
per line; normalized like transcripts). "asr transcribe -lm OUT" and
"asr eval -lm OUT" add it to beam search with weight -lm-weight (shallow
fusion). A small share of the lines is held out and OUT keeps the model
with the fewest bits per character on them, which it prints (-json: an
object with model and bits_per_char).

Flags:
`

const trainLMExamples = `
Examples:

	asr train-lm -o /tmp/tiny-lm.safetensors -hidden 16 -max-steps 20 -batch 2 testdata/sentences.txt

Recipes:

	asr train-lm -o runs/lm.safetensors ../shared/data/text/*.txt
`

func runTrainLM(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("train-lm", trainLMUsage, trainLMExamples, stderr)
	var o speech.LMOptions
	fs.StringVar(&o.Out, "o", "", "output model `file` (required)")
	fs.IntVar(&o.Config.Hidden, "hidden", 256, "LSTM units")
	fs.IntVar(&o.BatchSize, "batch", 32, "sentences per batch")
	fs.IntVar(&o.Epochs, "epochs", 2, "passes over the text")
	fs.IntVar(&o.MaxSteps, "max-steps", 0, "stop after this many steps (0: no limit)")
	fs.Float64Var(&o.LR, "lr", 2e-3, "learning rate (Adam)")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed")
	asJSON := cli.JSONFlag(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if o.Out == "" || fs.NArg() == 0 {
		return cli.Usagef("train-lm needs -o OUT and at least one text file")
	}
	o.Text, o.Log = fs.Args(), stderr
	o.Config.Embed = 0
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bpc, err := speech.TrainLM(ctx, o)
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, struct {
			Model       string  `json:"model"`
			BitsPerChar float64 `json:"bits_per_char"` // on the held-out text
		}{o.Out, bpc})
	}
	fmt.Fprintf(stdout, "%s: %.3f bits per character on held-out text\n", o.Out, bpc)
	return nil
}
