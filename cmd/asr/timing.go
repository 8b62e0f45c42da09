package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speecheval"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

func init() {
	commands.Add("timing", "measure the accuracy of derived word times on synthetic clips (needs espeak-ng)", runTiming)
}

const timingUsage = `Usage: asr timing [flags]

Measures how well the word start times derived from the attention
alignment match the truth. It renders single words with espeak-ng,
concatenates them with random pauses (so every true start is known), and
times the words of each clip in two ways (-mode):

  forced  asr align: the clip's text forced through the speller; every
          word counts.
  free    asr transcribe: the clip decoded freely; only the words it
          recognized count.

For each it prints the share of word starts within -tolerance of the
truth, with the number of words compared and the mean and median
absolute error. -json prints one object: mode, tolerance, clips,
ref_words, and forced and free, each with words, within,
mean_abs_error and median_abs_error (seconds), and left out when not
measured or when no word was compared.

Flags:
`

const timingExamples = `
Examples:

	asr timing -h

Recipes:

	asr timing -clips 50
	asr timing -clips 50 -mode forced -seed 2
	asr timing -clips 20 -words 20 -mode forced -chunk 15s
`

func runTiming(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("timing", timingUsage, timingExamples, stderr)
	modelPath := fs.String("model", "", "model `file` (default: the embedded model)")
	var o speecheval.TimingOptions
	fs.IntVar(&o.Clips, "clips", 20, "synthetic clips")
	fs.IntVar(&o.Words, "words", 6, "words per clip")
	fs.Float64Var(&o.Tolerance, "tolerance", 0.1, "seconds a derived start may be off")
	fs.StringVar(&o.Voice, "voice", "en-us", "espeak-ng voice")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed")
	beam := fs.Int("beam", 4, "beam width of free decoding")
	mode := fs.String("mode", "both", "alignments to measure: both, forced or free")
	chunk := fs.Duration("chunk", 0, "longest `duration` decoded at once (default: 8s for forced alignment, 15s for free decoding)")
	asJSON := cli.JSONFlag(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	switch {
	case o.Clips < 1:
		return cli.Usagef("-clips %d: want at least 1", o.Clips)
	case o.Words < 1:
		return cli.Usagef("-words %d: want at least 1", o.Words)
	case o.Tolerance <= 0:
		return cli.Usagef("-tolerance %v: want a positive number of seconds", o.Tolerance)
	case *chunk < 0:
		return cli.Usagef("-chunk %v: want a positive duration", *chunk)
	}
	modes := map[string]speecheval.TimingMode{"both": speecheval.TimingBoth, "forced": speecheval.TimingForced, "free": speecheval.TimingFree}
	m, ok := modes[*mode]
	if !ok {
		return cli.Usagef("-mode %q: want both, forced or free", *mode)
	}
	o.Mode = m
	if *beam < 1 {
		return cli.Usagef("-beam %d: want at least 1", *beam)
	}
	model, err := speechmodel.OpenModel(*modelPath)
	if err != nil {
		return err
	}
	search := speechmodel.DefaultSearchOptions()
	search.Beam, search.CTCBeam = *beam, 0
	opts := &speech.TranscribeOptions{}
	opts.Segment.MaxLength = *chunk
	tr, err := speech.NewTranscriber(speechmodel.NewLAS(model, &search), opts)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := speecheval.TimingAccuracy(ctx, tr, o)
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, struct {
			Mode      string  `json:"mode"`
			Tolerance float64 `json:"tolerance"` // seconds
			*speecheval.TimingReport
		}{*mode, o.Tolerance, rep})
	}
	fmt.Fprintf(stdout, "%d clips, %d words; word starts within %.0f ms of the truth:\n", rep.Clips, rep.RefWords, 1000*o.Tolerance)
	for _, r := range []struct {
		mode, words string
		s           speecheval.TimingStats
	}{{"forced", "words", rep.Forced}, {"free", "recognized words", rep.Free}} {
		switch {
		case o.Mode != speecheval.TimingBoth && modes[r.mode] != o.Mode: // not measured
		case r.s.Words == 0:
			fmt.Fprintf(stdout, "%-6s  no %s to compare\n", r.mode, r.words)
		default:
			fmt.Fprintf(stdout, "%-6s  %5.1f%%  %d of %d %s, error mean %.0f ms, median %.0f ms\n",
				r.mode, 100*r.s.Fraction(), r.s.Within, r.s.Words, r.words, 1000*r.s.MeanAbsError, 1000*r.s.MedianAbsError)
		}
	}
	return nil
}
