package main

import (
	"fmt"
	"io"

	"github.com/attend-go/attend/pipeline"
	"github.com/attend-go/attend/pipeline/cli"
)

const featuresUsage = `Usage: asr features [-tsv] FILE...

Decodes each audio file (WAV, FLAC, OGG Vorbis or MP3, recognized by content),
downmixes it to mono, resamples it to 16 kHz and computes 80-bin log-mel
filterbank features (25 ms Povey window, 10 ms hop; Kaldi compatible): the
input of the speech model. For each file it prints the duration, the feature
shape and a loudness line. "-" reads standard input.

Flags:
`

const featuresExamples = `
Examples:

	asr features testdata/hello.wav
	asr features -tsv testdata/hello.wav > hello.tsv
`

func init() {
	commands.Add("features", "show the log-mel features the model sees for audio files", runFeatures)
}

func runFeatures(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("features", featuresUsage, featuresExamples, stderr)
	tsv := fs.Bool("tsv", false, "print every frame as a tab-separated row of 80 log-mel values instead of a summary")
	width := fs.Int("width", 60, "width of the loudness line in characters")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return cli.Usagef("features needs at least one audio file")
	}
	if *width < 1 {
		return cli.Usagef("-width %d: must be at least 1", *width)
	}
	failed := 0
	for _, path := range fs.Args() {
		rep, err := pipeline.SpeechFeatures(path, stdin)
		if err != nil {
			fmt.Fprintln(stderr, "asr:", err)
			failed++
			continue
		}
		if *tsv {
			printTSV(stdout, rep)
			continue
		}
		f := rep.Features
		fmt.Fprintf(stdout, "%s: %.2f s, %d frames × %d log-mel bins\n", path, rep.Duration.Seconds(), f.Frames, f.Bins)
		fmt.Fprintf(stdout, "  loudness %s\n", pipeline.Sparkline(rep.Energy, *width))
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d files failed", cli.ErrReported, failed, fs.NArg())
	}
	return nil
}

func printTSV(w io.Writer, rep *pipeline.FeatureReport) {
	f := rep.Features
	for t := 0; t < f.Frames; t++ {
		for i, v := range f.Row(t) {
			if i > 0 {
				fmt.Fprint(w, "\t")
			}
			fmt.Fprintf(w, "%.4f", v)
		}
		fmt.Fprintln(w)
	}
}
