package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/batch"
	"github.com/attend-go/attend/pipeline/speech"
)

func init() {
	commands.Add("transcribe", "turn speech in audio files and directories into text, with word timings", runTranscribe)
}

const transcribeUsage = `Usage: asr transcribe [flags] FILE...
       asr transcribe [flags] DIR...

Transcribes each audio file (WAV, FLAC, OGG Vorbis or MP3, recognized by
content; "-" reads standard input) with the embedded default model or
-model. A voice activity detector finds the speech first: silence, noise,
tones and music are skipped, not decoded, and long recordings are cut in
the pauses between speech into chunks of at most 10 s (the length of the
utterances the model learnt from), decoded one by one, so memory stays
bounded whatever the length. A file without speech prints an empty line
(txt), no subtitles (srt, vtt), and chunks with "no_speech": true (json).
-vad=false decodes everything, in chunks of at most 15 s cut at the
quietest point.

Files: the transcripts go to standard output in -format: txt prints the
text (PATH<TAB>text when there are several files); json one object per
file with the text, the chunks and per-word start/end times (from the
most likely monotonic path through the attention and the CTC head) and
confidences, and per chunk "no_speech" and "no_speech_score" (1 − the
detector's highest speech probability in it); srt and vtt subtitles. A file that fails is
reported on stderr and the others are still transcribed; the exit status
is then 1.

Batches: when an argument is a directory, or -o, --list, --out-dir,
--resume or --shard is given, the inputs are transcribed as a batch by -j
workers sharing one model. Directories are walked (recursively unless
--recursive=false) for audio files, recognized by content or extension.
Each input gets one record (path, text, the json transcript, error,
model, seconds) in -o FILE: JSONL, or TSV or CSV by its extension or
--output-format. With --format each also gets a file of its own in that
format, next to it or below --out-dir in a mirror of the tree (txt when
only --out-dir is given). With neither, JSONL records go to standard
output. A failed input is recorded with its reason and the others go on
(exit status 1). Outputs are never replaced unless --overwrite; --resume
skips the inputs already done and retries the failed ones. SIGINT or
SIGTERM finishes the inputs in flight and exits with status 130 (a second
one abandons them); resume to finish. --shard i/n keeps one of n disjoint
parts of the inputs, so n machines can split a corpus; "asr merge" joins
their outputs. -j, --ordered, --recursive, --output-format, --overwrite,
--fail-fast and --quiet apply to batches only.

Flags:
`

const transcribeExamples = `
Examples:

	asr transcribe testdata/hello.wav
	asr transcribe -format json testdata/hello.wav
	asr transcribe -beam 1 -format srt testdata/hello.wav
	asr transcribe -align /tmp/hello-align.png testdata/hello.wav
	asr transcribe -beam 1 -j 2 --quiet testdata/speech > transcripts.jsonl

Recipes:

	asr transcribe -o transcripts.jsonl corpus/
	asr transcribe --resume -o transcripts.jsonl corpus/
	asr transcribe --format srt --out-dir subtitles/ corpus/
	find corpus -name '*.flac' -print0 | asr transcribe --list - -o transcripts.tsv
	asr transcribe --resume --shard 3/8 -o out/shard-3.jsonl corpus/
	asr merge -o transcripts.jsonl out/shard-*.jsonl
`

func runTranscribe(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("transcribe", transcribeUsage, transcribeExamples, stderr)
	modelPath := fs.String("model", "", "model `file` (default: the embedded model)")
	format := fs.String("format", "txt", "output format: "+strings.Join(speech.Formats, ", ")+"; for a batch, the format of a file per input")
	asJSON := fs.Bool("json", false, "shorthand for -format json")
	var so speech.SearchOptions
	fs.IntVar(&so.Beam, "beam", 4, "beam width; 1 is greedy search")
	fs.Float64Var(&so.CTCWeight, "ctc-weight", 0.3, "weight of the CTC prefix score in joint decoding; 0 for attention alone")
	fs.Float64Var(&so.LengthPenalty, "length-penalty", 1, "rank hypotheses by score / length^α; 0 for none")
	fs.Float64Var(&so.EOSThreshold, "eos-threshold", 1.5, "end of sentence only when log p(end) ≥ γ · log p(best character); 0 for none")
	align := fs.String("align", "", "draw the spectrogram and attention alignment of each chunk into this PNG `path` (a directory when there are several files)")
	fs.IntVar(&so.CTCBeam, "ctc-beam", 0, "width of the CTC prefix beam search whose transcripts join the attention beam's for joint rescoring; 0 for none (attention with CTC fallback)")
	vad := fs.Bool("vad", true, "skip non-speech (voice activity detection) and cut chunks in pauses; false decodes all audio")
	noFallback := fs.Bool("no-fallback", false, "keep the attention output even where it looks broken (no CTC fallback)")
	lmf := addLMFlags(fs)
	bf := cli.Batch{Tool: "asr", Inputs: "audio files", Accept: batch.IsAudio, Formats: speech.Formats}
	bf.Register(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if *asJSON {
		*format, set["format"] = "json", true
	}
	if !slices.Contains(speech.Formats, *format) {
		return cli.Usagef("-format %q: want one of %s", *format, strings.Join(speech.Formats, ", "))
	}
	isBatch := bf.Wanted(fs.Args())
	if fs.NArg() == 0 && bf.List == "" {
		return cli.Usagef("transcribe needs at least one audio file or directory")
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
	tj := &transcription{paths: fs.Args(), modelPath: *modelPath, noVAD: !*vad, stdin: stdin, stdout: stdout, stderr: stderr}
	var opts *batch.Options
	alignDir := false
	if isBatch {
		if *align != "" {
			return cli.Usagef("-align draws single files; it does not apply to batches")
		}
		sidecar := ""
		if set["format"] {
			sidecar = *format
		}
		var err error
		if opts, err = bf.Options(sidecar); err != nil {
			return err
		}
	} else {
		if err := bf.Refuse(fs); err != nil {
			return err
		}
		if *align != "" {
			st, err := os.Stat(*align)
			alignDir = err == nil && st.IsDir()
			if fs.NArg() > 1 && !alignDir {
				return cli.Usagef("-align %s: with several files, -align names an existing directory", *align)
			}
		}
	}
	lm, err := lmf.finish(fs)
	if err != nil {
		return err
	}
	tj.search, tj.lm = so, lm
	if isBatch {
		return tj.batch(&bf, opts)
	}
	return tj.files(*format, *align, alignDir)
}

// transcription is a transcribe command with its flags checked.
type transcription struct {
	paths          []string // the arguments
	modelPath      string   // "" for the embedded model
	search         speech.SearchOptions
	lm             speech.LanguageModel
	noVAD          bool // decode all audio (-vad=false)
	stdin          io.Reader
	stdout, stderr io.Writer
}

// files transcribes files one after the other to stdout in format. With
// align, it draws each file's alignment there (a directory when
// alignDir).
func (tj *transcription) files(format, align string, alignDir bool) error {
	model, err := tj.openModel()
	if err != nil {
		return err
	}
	tr, err := speech.NewTranscriber(model, &speech.TranscribeOptions{Search: tj.search, NoVAD: tj.noVAD, KeepAlignment: align != ""})
	if err != nil {
		return err
	}
	failed := 0
	for _, path := range tj.paths {
		t, err := tr.File(path, tj.stdin)
		if err != nil {
			fmt.Fprintln(tj.stderr, "asr:", err)
			failed++
			continue
		}
		if align != "" {
			out := align
			if alignDir {
				name := filepath.Base(path)
				if path == "-" {
					name = "stdin"
				}
				out = filepath.Join(align, strings.TrimSuffix(name, filepath.Ext(name))+".png")
			}
			files, err := speech.AlignmentPlots(t, out, model.Config.Reduction())
			if err != nil {
				fmt.Fprintln(tj.stderr, "asr:", err)
				failed++
			}
			for _, f := range files {
				fmt.Fprintln(tj.stderr, "asr: wrote", f)
			}
		}
		if format == "txt" && len(tj.paths) > 1 {
			fmt.Fprintf(tj.stdout, "%s\t%s\n", path, t.Text)
			continue
		}
		if err := speech.WriteTranscript(tj.stdout, t, format); err != nil {
			return err
		}
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d files failed", cli.ErrReported, failed, len(tj.paths))
	}
	return nil
}

// batch finds the inputs and transcribes them with package batch, one
// Transcriber per worker over one shared model, into the outputs of opts.
func (tj *transcription) batch(b *cli.Batch, opts *batch.Options) error {
	inputs, err := b.Collect(tj.paths, tj.stdin, tj.stderr)
	if err != nil {
		return err
	}
	model, err := tj.openModel()
	if err != nil {
		return err
	}
	speech.SetFFTWorkers(min(opts.Jobs, len(inputs)))
	opts.Model, opts.Stdout, opts.Stderr = speech.ModelID(tj.modelPath), tj.stdout, tj.stderr
	return b.Run(inputs, speech.BatchFactory(model, &speech.TranscribeOptions{Search: tj.search, NoVAD: tj.noVAD}), opts)
}

// openModel opens the acoustic model and sets up the language model for
// it in tj.search.
func (tj *transcription) openModel() (*speech.Model, error) {
	model, err := speech.OpenModel(tj.modelPath)
	if err != nil {
		return nil, err
	}
	if err := tj.lm.Apply(model, &tj.search); err != nil {
		return nil, err
	}
	return model, nil
}
