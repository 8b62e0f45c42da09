package main

import (
	"fmt"
	"io"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speech"
)

const featuresUsage = `Usage: asr features [-tsv | -json] FILE...

Decodes each audio file (WAV, FLAC, OGG Vorbis or MP3, recognized by content),
downmixes it to mono, resamples it to 16 kHz and computes 80-bin log-mel
filterbank features (25 ms Povey window, 10 ms hop; Kaldi compatible): the
input of the speech model. For each file it prints the duration, the feature
shape and a loudness line; -json prints them as one object per file (path,
duration in seconds, frames, bins, loudness). "-" reads standard input.

Flags:
`

const featuresExamples = `
Examples:

	asr features testdata/hello.wav
	asr features -json testdata/hello.wav
	asr features -tsv testdata/hello.wav > hello.tsv
`

func init() {
	commands.Add("features", "show the log-mel features the model sees for audio files", runFeatures)
}

func runFeatures(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("features", featuresUsage, featuresExamples, stderr)
	tsv := fs.Bool("tsv", false, "print every frame as a tab-separated row of 80 log-mel values instead of a summary")
	width := fs.Int("width", 60, "width of the loudness line in characters")
	asJSON := cli.JSONFlag(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if *tsv && *asJSON {
		return cli.Usagef("-tsv and -json exclude each other")
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
		rep, err := speech.LoadFeatures(path, stdin)
		if err != nil {
			fmt.Fprintln(stderr, "asr:", err)
			failed++
			continue
		}
		if *tsv {
			printTSV(stdout, rep)
			continue
		}
		s := featureSummary{Path: path, Duration: rep.Duration.Seconds(), Frames: rep.Features.Frames, Bins: rep.Features.Bins,
			Loudness: speech.Sparkline(rep.Energy, *width)}
		if *asJSON {
			if err := cli.WriteJSON(stdout, s); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintf(stdout, "%s: %.2f s, %d frames × %d log-mel bins\n", s.Path, s.Duration, s.Frames, s.Bins)
		fmt.Fprintf(stdout, "  loudness %s\n", s.Loudness)
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d files failed", cli.ErrReported, failed, fs.NArg())
	}
	return nil
}

// featureSummary is what asr features prints of a file. It is not
// speech.FeatureReport, which holds the features themselves and a
// time.Duration.
type featureSummary struct {
	Path     string  `json:"path"`
	Duration float64 `json:"duration"` // seconds
	Frames   int     `json:"frames"`   // 10 ms frames
	Bins     int     `json:"bins"`     // log-mel bins per frame
	Loudness string  `json:"loudness"` // each frame's mean log-mel value, as a line of -width block characters
}

func printTSV(w io.Writer, rep *speech.FeatureReport) {
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
