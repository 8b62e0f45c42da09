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
	commands.Add("timing", "measure the accuracy of derived word times on synthetic clips (needs espeak-ng)", runTiming)
}

const timingUsage = `Usage: asr timing [flags]

Measures how well the word start times that transcribe derives from the
attention alignment match the truth. It renders single words with
espeak-ng, concatenates them with random pauses (so every true start is
known), transcribes the clips and compares the start of each correctly
recognized word with the truth: it prints the share within -tolerance.

Flags:
`

const timingExamples = `
Examples:

	asr timing -h

Recipes:

	asr timing -clips 50 -beam 4
`

func runTiming(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("timing", timingUsage, timingExamples, stderr)
	modelPath := fs.String("model", "", "model `file` (default: the embedded model)")
	var o speech.TimingOptions
	fs.IntVar(&o.Clips, "clips", 20, "synthetic clips")
	fs.IntVar(&o.Words, "words", 6, "words per clip")
	fs.Float64Var(&o.Tolerance, "tolerance", 0.1, "seconds a derived start may be off")
	fs.StringVar(&o.Voice, "voice", "en-us", "espeak-ng voice")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed")
	beam := fs.Int("beam", 4, "beam width")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	model, err := speech.OpenModel(*modelPath)
	if err != nil {
		return err
	}
	tr, err := speech.NewTranscriber(model, &speech.TranscribeOptions{Search: speech.SearchOptions{Beam: *beam}})
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := speech.TimingAccuracy(ctx, tr, o)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d clips, %d words, %d recognized: %.1f%% of their starts within %.0f ms (mean error %.0f ms)\n",
		rep.Clips, rep.RefWords, rep.Matched, 100*rep.Fraction(), 1000*o.Tolerance, 1000*rep.MeanAbsError)
	return nil
}
