package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/internal/input"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

func init() {
	commands.Add("align", "time the words of a known text in an audio file (forced alignment: subtitles for a script)", runAlign)
}

const alignUsage = `Usage: asr align [flags] AUDIO TEXT...
       asr align [flags] -text-file FILE AUDIO

Times the words of a known transcript in one audio file (WAV, FLAC, OGG
Vorbis or MP3; "-" reads standard input): the text, normalized as the
model spells it (lower case, numbers and symbols spelled out), is forced
through the speller; each character is placed on the most likely
monotonic path through the speller's attention and the CTC head's
posteriors, and a word spans its characters' encoder frames (60 ms for
the default model). Every word of the text gets a time, whether or not
the model would have recognized it.

The text is the arguments after AUDIO, joined by spaces, or the contents
of -text-file ("-": standard input). Long recordings are cut at pauses
into chunks of at most -chunk (attention keeps its place over inputs as
long as its training utterances, a few seconds), and the words are
shared out among the chunks by the CTC alignment of the whole text, so
more than one chunk needs a model with a CTC head (the default model has
one). The output goes to standard output in -format: srt and vtt
subtitles, json the chunks with per-word start/end times, txt the text.
They show the script's words as written ("Dr. Smith paid $5."), each
timed by the normalized words it was aligned as ("dr smith paid five":
in json, "word" as written and "normalized"); a word that says nothing
(a dash) goes with its neighbour. -plot draws the spectrogram over the
attention of each chunk, with the word starts marked (PATH-001.png,
PATH-002.png, … for several chunks).

A script that does not match the audio still gets times, but they mean
nothing: when the speller finds the script's characters unlikely (a
mean log-probability per character below -1.5, "script_score" in json)
asr align warns on standard error, and with -strict fails instead,
writing nothing.

Flags:
`

const alignExamples = `
Examples:

	asr align testdata/hello.wav the quick brown fox jumps over the lazy dog
	asr align -format json -text-file testdata/hello.txt testdata/hello.wav
	asr align -format vtt -plot /tmp/hello-forced.png -text-file testdata/hello.txt testdata/hello.wav

Recipes:

	asr align -text-file lecture.txt lecture.flac > lecture.srt
`

func runAlign(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("align", alignUsage, alignExamples, stderr)
	modelPath := fs.String("model", "", "model `file` (default: the embedded model)")
	format := fs.String("format", "srt", "output format: "+strings.Join(speech.Formats, ", "))
	textFile := fs.String("text-file", "", "read the text from `file` (\"-\": standard input) instead of the arguments")
	plot := fs.String("plot", "", "draw the spectrogram and the forced alignment of each chunk into this PNG `path`")
	chunk := fs.Duration("chunk", speech.AlignChunkLength, "longest `duration` of audio aligned at once")
	strict := fs.Bool("strict", false, "fail, writing nothing, when the script does not seem to match the audio (instead of a warning)")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if *chunk <= 0 {
		return cli.Usagef("-chunk %v: want a positive duration", *chunk)
	}
	if !slices.Contains(speech.Formats, *format) {
		return cli.Usagef("-format %q: want one of %s", *format, strings.Join(speech.Formats, ", "))
	}
	if fs.NArg() == 0 {
		return cli.Usagef("align needs an audio file and its text")
	}
	audioPath, words := fs.Arg(0), fs.Args()[1:]
	var text string
	switch {
	case *textFile != "" && len(words) > 0:
		return cli.Usagef("give the text as arguments or with -text-file, not both")
	case *textFile == "" && len(words) == 0:
		return cli.Usagef("align needs the text of %s: as arguments after it, or with -text-file", audioPath)
	case *textFile == "-" && audioPath == "-":
		return cli.Usagef("the audio and -text-file cannot both be standard input")
	case *textFile == "-":
		b, err := io.ReadAll(stdin)
		if err != nil {
			return fmt.Errorf("reading the text from standard input: %w", err)
		}
		text = string(b)
	case *textFile != "":
		b, err := os.ReadFile(*textFile)
		if err != nil {
			return fmt.Errorf("-text-file: %w", err)
		}
		text = string(b)
	default:
		text = strings.Join(words, " ")
	}
	// Forced alignment runs no search: no language model to load.
	model, err := speechmodel.Open(*modelPath, &speechmodel.Decoding{LM: speechmodel.LanguageModel{Path: speechmodel.NoLM}})
	if err != nil {
		return err
	}
	opts := &speech.TranscribeOptions{KeepAlignment: *plot != ""}
	opts.Segment.MaxLength = *chunk
	tr, err := speech.NewTranscriber(model, opts)
	if err != nil {
		return err
	}
	t, err := tr.Align(audioPath, stdin, text)
	if err != nil {
		return err
	}
	name := input.DisplayName(audioPath)
	if t.ScriptScore < speech.MismatchScore {
		msg := fmt.Sprintf("%s: the script does not seem to match the audio: its characters score %.2f (mean log-probability per character under the speller; a matching script scores above %.1f)",
			name, t.ScriptScore, speech.MismatchScore)
		if *strict {
			return errors.New(msg)
		}
		fmt.Fprintln(stderr, "asr: warning:", msg)
	}
	if t.Truncated {
		fmt.Fprintf(stderr, "asr: warning: %s: the file is cut short: aligned the script to the %.1f s it holds\n", name, t.Duration)
	}
	if *plot != "" {
		files, err := speech.AlignmentPlots(t, *plot, model.Info().EncoderFrameSeconds)
		for _, f := range files {
			fmt.Fprintln(stderr, "asr: wrote", f)
		}
		if err != nil {
			return err
		}
	}
	return speech.WriteTranscript(stdout, t, *format)
}
