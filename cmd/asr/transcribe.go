package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/attend-go/attend/pipeline/cli"
	"github.com/attend-go/attend/pipeline/speech"
)

func init() {
	commands.Add("transcribe", "turn speech in audio files into text, with word timings", runTranscribe)
}

const transcribeUsage = `Usage: asr transcribe [flags] FILE...

Transcribes each audio file (WAV, FLAC, OGG Vorbis or MP3, recognized by
content; "-" reads standard input) with the embedded default model or
-model. Long recordings are cut into chunks of at most 15 s at pauses and
decoded chunk by chunk, so memory stays bounded whatever the length.

Output formats (-format): txt prints the text (PATH<TAB>text when there
are several files); json prints one object per file with the text, the
chunks and per-word start/end times derived from the attention alignment;
srt and vtt print subtitles. A file that fails is reported on stderr and
the others are still transcribed; the exit status is then 1.

Flags:
`

const transcribeExamples = `
Examples:

	asr transcribe testdata/hello.wav
	asr transcribe -format json testdata/hello.wav
	asr transcribe -beam 1 -format srt testdata/hello.wav
	asr transcribe -align /tmp/hello-align.png testdata/hello.wav
`

func runTranscribe(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("transcribe", transcribeUsage, transcribeExamples, stderr)
	modelPath := fs.String("model", "", "model `file` (default: the embedded model)")
	format := fs.String("format", "txt", "output format: "+strings.Join(speech.Formats, ", "))
	asJSON := fs.Bool("json", false, "shorthand for -format json")
	var so speech.SearchOptions
	fs.IntVar(&so.Beam, "beam", 4, "beam width; 1 is greedy search")
	fs.Float64Var(&so.CTCWeight, "ctc-weight", 0.3, "weight of the CTC prefix score in joint decoding; 0 for attention alone")
	fs.Float64Var(&so.LengthPenalty, "length-penalty", 1, "rank hypotheses by score / length^α; 0 for none")
	fs.Float64Var(&so.EOSThreshold, "eos-threshold", 1.5, "end of sentence only when log p(end) ≥ γ · log p(best character); 0 for none")
	align := fs.String("align", "", "draw the spectrogram and attention alignment of each chunk into this PNG `path` (a directory when there are several files)")
	noFallback := fs.Bool("no-fallback", false, "keep the attention output even where it looks broken (no CTC fallback)")
	lmPath := fs.String("lm", "", "character language model `file` (asr train-lm) for shallow fusion")
	fs.Float64Var(&so.LMWeight, "lm-weight", 0.3, "weight β of the language model's log-probability")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if *asJSON {
		*format = "json"
	}
	if !slices.Contains(speech.Formats, *format) {
		return cli.Usagef("-format %q: want one of %s", *format, strings.Join(speech.Formats, ", "))
	}
	if fs.NArg() == 0 {
		return cli.Usagef("transcribe needs at least one audio file")
	}
	if so.Beam < 1 {
		return cli.Usagef("-beam %d: want at least 1", so.Beam)
	}
	if so.CTCWeight < 0 || so.CTCWeight > 1 {
		return cli.Usagef("-ctc-weight %v: want [0, 1]", so.CTCWeight)
	}
	// The flags state true zeros; SearchOptions reads 0 as "default".
	if so.CTCWeight == 0 {
		so.CTCWeight = speech.NoCTC
	}
	if so.LengthPenalty == 0 {
		so.LengthPenalty = speech.NoLengthNorm
	}
	if so.EOSThreshold == 0 {
		so.EOSThreshold = -1
	}
	so.NoFallback = *noFallback
	model, err := speech.OpenModel(*modelPath)
	if err != nil {
		return err
	}
	if *lmPath != "" {
		lm, err := speech.LoadLM(*lmPath)
		if err != nil {
			return err
		}
		so.LM = lm
	}
	alignDir := false
	if *align != "" {
		st, err := os.Stat(*align)
		alignDir = err == nil && st.IsDir()
		if fs.NArg() > 1 && !alignDir {
			return cli.Usagef("-align %s: with several files, -align names an existing directory", *align)
		}
	}
	tr, err := speech.NewTranscriber(model, &speech.TranscribeOptions{Search: so, KeepAlignment: *align != ""})
	if err != nil {
		return err
	}
	failed := 0
	for _, path := range fs.Args() {
		t, err := tr.File(path, stdin)
		if err != nil {
			fmt.Fprintln(stderr, "asr:", err)
			failed++
			continue
		}
		if *align != "" {
			out := *align
			if alignDir {
				name := filepath.Base(path)
				if path == "-" {
					name = "stdin"
				}
				out = filepath.Join(*align, strings.TrimSuffix(name, filepath.Ext(name))+".png")
			}
			files, err := speech.AlignmentPlots(t, out, model.Config.Reduction())
			if err != nil {
				fmt.Fprintln(stderr, "asr:", err)
				failed++
			}
			for _, f := range files {
				fmt.Fprintln(stderr, "asr: wrote", f)
			}
		}
		if *format == "txt" && fs.NArg() > 1 {
			fmt.Fprintf(stdout, "%s\t%s\n", path, t.Text)
			continue
		}
		if err := speech.WriteTranscript(stdout, t, *format); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d files failed", cli.ErrReported, failed, fs.NArg())
	}
	return nil
}
