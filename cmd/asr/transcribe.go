package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/internal/input"
	"github.com/attend-go/attend/pipeline/batch"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speechmodel"
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
the pauses between speech into chunks of at most 12 s (the length of the
longest utterances the model learnt from), decoded one by one, so memory stays
bounded whatever the length. A file without speech prints an empty line
(txt), no subtitles (srt, vtt), and chunks with "no_speech": true (json).
-vad=false decodes everything, in chunks of at most 15 s cut at the
quietest point.

Files: the transcripts go to standard output in -format, the text and
subtitles of each chunk as soon as it is decoded (in order): txt prints the
text (PATH<TAB>text when there are several files); json one object per
file with the text, the chunks and per-word start/end times (from the
most likely monotonic path through the attention and the CTC head) and
confidences, and per chunk "no_speech" and "no_speech_score" (1 − the
detector's highest speech probability in it; times in seconds, to the
millisecond); srt and vtt subtitles, of one file (several files need
--out-dir). A file that fails is reported on stderr and the others are
still transcribed; the exit status is then 1. On a terminal, stderr shows
a progress line (percentage, speed, time left) unless --quiet. -t N
decodes the chunks of a file on N cores, with the same output.

As with whisper.cpp, -otxt, -osrt, -ovtt and -ojson also write each
file's transcript beside it (talk.wav.srt; several at once, replacing
what is there), -timestamps prints txt as a line per chunk after its
times ("[00:00:01.000 --> 00:00:04.200]  text"), and -blank-audio shows
a chunk without speech as [BLANK_AUDIO].

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
and --fail-fast apply to batches only. Flags may follow the files; "--"
ends them.

Flags:
`

const transcribeExamples = `
Examples:

	asr transcribe testdata/hello.wav
	asr transcribe -format json testdata/hello.wav
	asr transcribe -beam 1 -format srt testdata/hello.wav
	asr transcribe -align /tmp/hello-align.png testdata/hello.wav
	asr transcribe -timestamps -blank-audio testdata/hello.wav
	asr transcribe -beam 1 -j 2 --quiet testdata/speech > transcripts.jsonl

Recipes:

	asr transcribe -osrt -otxt talk.wav
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
	sf := addSearchFlags(fs)
	align := fs.String("align", "", "draw the spectrogram and attention alignment of each chunk into this PNG `path` (a directory when there are several files); a chunk decoded by the CTC fallback shows the CTC posteriors instead, and says so")
	vad := fs.Bool("vad", true, "skip non-speech (voice activity detection) and cut chunks in pauses; false decodes all audio")
	noFallback := fs.Bool("no-fallback", false, "keep the first decoding even where it looks broken: no CTC fallback (our model), no temperature fallback (Whisper models, whisper.cpp's -nf)")
	timings := fs.Bool("timings", false, `print where the time went to standard error at the end, one JSON line: {"mel_ms", "encode_ms", "encode_windows", "decode_ms", "decode_tokens"} over every file (model loading and file reading excluded); files only`)
	threads := fs.Int("t", 1, "decode the chunks of each file on `N` cores at once (0: one per core); the output is the same; files only (batches: -j)")
	var wf whisperFlags
	wf.register(fs)
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
	if err := wf.check(fs.Args(), isBatch); err != nil {
		return err
	}
	sf.so.NoFallback = *noFallback
	dec, err := sf.decoding(fs)
	if err != nil {
		return err
	}
	if *threads < 0 {
		return cli.Usagef("-t %d: want at least 1 (0: one per core)", *threads)
	}
	if *threads == 0 {
		*threads = runtime.GOMAXPROCS(0)
	}
	tj := &transcription{paths: fs.Args(), modelPath: *modelPath, noVAD: !*vad, threads: *threads, quiet: bf.Quiet, timings: *timings,
		whisper: wf, stdin: stdin, stdout: stdout, stderr: stderr}
	var opts *batch.Options
	alignDir := false
	if isBatch {
		if *align != "" {
			return cli.Usagef("-align draws single files; it does not apply to batches")
		}
		if set["t"] {
			return cli.Usagef("-t decodes the chunks of single files; a batch runs -j files at once")
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
		if err := bf.Refuse(fs, "quiet"); err != nil {
			return err
		}
		if (*format == "srt" || *format == "vtt") && fs.NArg() > 1 {
			return cli.Usagef("-format %s with %d files would make one invalid subtitle file on standard output: add --out-dir DIR for DIR/NAME.%s per file, or transcribe one file at a time", *format, fs.NArg(), *format)
		}
		if *align != "" {
			st, err := os.Stat(*align)
			alignDir = err == nil && st.IsDir()
			if fs.NArg() > 1 && !alignDir {
				return cli.Usagef("-align %s: with several files, -align names an existing directory", *align)
			}
		}
	}
	tj.decoding = dec
	if isBatch {
		return tj.batch(&bf, opts)
	}
	if err := checkOutputs(fs.Args(), *align, alignDir, &wf); err != nil {
		return err
	}
	return tj.files(*format, *align, alignDir)
}

// transcription is a transcribe command with its flags checked.
type transcription struct {
	paths          []string // the arguments
	modelPath      string   // "" for the embedded model
	decoding       speechmodel.Decoding
	noVAD          bool // decode all audio (-vad=false)
	threads        int  // -t: workers decoding the chunks of a file
	quiet          bool // no progress line
	timings        bool // -timings: print the stages' times at the end
	whisper        whisperFlags
	stdin          io.Reader
	stdout, stderr io.Writer
}

// files transcribes files one after the other to stdout in format,
// printing each chunk's text or cues as soon as it is decoded, with a
// progress line on stderr when it is a terminal. With align, it draws
// each file's alignment there (a directory when alignDir).
func (tj *transcription) files(format, align string, alignDir bool) error {
	failed := 0
	var paths []string
	for _, path := range tj.paths {
		if err := speech.CheckAudio(path); err != nil {
			fmt.Fprintln(tj.stderr, "asr:", err)
			failed++
			continue
		}
		paths = append(paths, path)
	}
	if len(paths) == 0 { // the model need not load
		return fmt.Errorf("%w: %d of %d files failed", cli.ErrReported, failed, len(tj.paths))
	}
	model, err := tj.openModel()
	if err != nil {
		return err
	}
	speech.SetFFTWorkers(tj.threads)
	var (
		out      *progressWriter
		progress *cli.AudioProgress
	)
	opts := &speech.TranscribeOptions{NoVAD: tj.noVAD, KeepAlignment: align != "", Threads: tj.threads,
		OnStart: func(length time.Duration) {
			progress.Start(length)
			progress.Draw()
		},
		OnChunk: func(c speech.Chunk) {
			progress.Set(time.Duration(c.End * float64(time.Second)))
			out.tw.Chunk(c) // redraws the progress line
			if !out.midLine {
				progress.Draw() // for chunks that print nothing
			}
		},
	}
	tr, err := speech.NewTranscriber(model, opts)
	if err != nil {
		return err
	}
	showProgress := !tj.quiet && cli.IsTerminal(tj.stderr)
	stdoutTerminal := cli.IsTerminal(tj.stdout)
	var stages speechmodel.Stages
	for _, path := range paths {
		prefix := ""
		if format == "txt" && len(tj.paths) > 1 {
			prefix = path + "\t"
		}
		progress = cli.NewAudioProgress(tj.stderr, "asr", input.DisplayName(path), showProgress)
		out = &progressWriter{w: tj.stdout, progress: progress, terminal: stdoutTerminal}
		if out.tw, err = speech.NewTranscriptWriterOptions(out, format, prefix, tj.whisper.textOptions()); err != nil {
			return err
		}
		t, err := tr.File(path, tj.stdin)
		progress.Clear()
		out.progress = nil // the file is done: no more progress
		if err != nil {
			if out.started() && format == "txt" {
				fmt.Fprintln(tj.stdout) // end the line of the chunks printed
			}
			fmt.Fprintln(tj.stderr, "asr:", err)
			failed++
			continue
		}
		stages.Add(t.Stages)
		for _, w := range t.Warnings() {
			fmt.Fprintf(tj.stderr, "asr: warning: %s: %s\n", input.DisplayName(path), w)
		}
		if align != "" {
			dst := align
			if alignDir {
				name := filepath.Base(path)
				if path == "-" {
					name = "stdin"
				}
				dst = filepath.Join(align, strings.TrimSuffix(name, filepath.Ext(name))+".png")
			}
			files, err := speech.AlignmentPlots(t, dst, model.Info().EncoderFrameSeconds)
			if err != nil {
				fmt.Fprintln(tj.stderr, "asr:", err)
				failed++
			}
			for _, f := range files {
				fmt.Fprintln(tj.stderr, "asr: wrote", f)
			}
		}
		if err := out.tw.Finish(t); err != nil {
			return err
		}
		files, err := tj.whisper.write(path, t)
		for _, f := range files {
			fmt.Fprintln(tj.stderr, "asr: wrote", f)
		}
		if err != nil {
			fmt.Fprintln(tj.stderr, "asr:", err)
			failed++
		}
	}
	if tj.timings {
		line, err := json.Marshal(stages)
		if err != nil {
			return err
		}
		fmt.Fprintf(tj.stderr, "%s\n", line)
	}
	if failed > 0 {
		return fmt.Errorf("%w: %d of %d files failed", cli.ErrReported, failed, len(tj.paths))
	}
	return nil
}

// progressWriter is standard output when a progress line may be on the
// terminal: the line is blanked before each write, and drawn again after
// unless the text written left the terminal's cursor inside a line.
type progressWriter struct {
	w        io.Writer
	tw       *speech.TranscriptWriter
	progress *cli.AudioProgress
	terminal bool // stdout is the terminal the progress line is on
	midLine  bool // the cursor is inside a line of stdout's text
	n        int  // bytes written
}

func (p *progressWriter) Write(b []byte) (int, error) {
	p.progress.Clear()
	n, err := p.w.Write(b)
	p.n += n
	if len(b) > 0 {
		p.midLine = p.terminal && b[len(b)-1] != '\n'
	}
	if !p.midLine {
		p.progress.Draw()
	}
	return n, err
}

func (p *progressWriter) started() bool { return p.n > 0 }

// batch finds the inputs and transcribes them with package batch, one
// Transcriber per worker over one shared model, into the outputs of opts.
func (tj *transcription) batch(b *cli.Batch, opts *batch.Options) error {
	inputs, err := b.Collect(tj.paths, tj.stdin, tj.stderr)
	if err != nil {
		return err
	}
	for i := range inputs {
		if inputs[i].Err == nil {
			inputs[i].Err = speech.CheckAudio(inputs[i].Path) // recorded as failed, unopened
		}
	}
	opts.Model, opts.Stdout, opts.Stderr = speechmodel.ModelID(tj.modelPath), tj.stdout, tj.stderr
	// The model loads when batch.Run starts its first worker: after the
	// outputs are checked, and not at all when no input is left to do.
	var (
		once    sync.Once
		factory batch.Factory
		loadErr error
	)
	return b.Run(inputs, func(w int) (batch.Processor, error) {
		once.Do(func() {
			model, err := tj.openModel()
			if err != nil {
				loadErr = err
				return
			}
			speech.SetFFTWorkers(min(opts.Jobs, len(inputs)))
			factory = speech.BatchFactory(model, &speech.TranscribeOptions{NoVAD: tj.noVAD})
		})
		if loadErr != nil {
			return nil, loadErr
		}
		return factory(w)
	}, opts)
}

// openModel opens the speech model with its search and language model.
func (tj *transcription) openModel() (speechmodel.Model, error) {
	return speechmodel.Open(tj.modelPath, &tj.decoding)
}
