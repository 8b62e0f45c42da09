package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speech"
	"github.com/attend-go/attend/pipeline/speecheval"
	"github.com/attend-go/attend/pipeline/speechmodel"
)

func init() {
	commands.Add("eval", "score a model on a manifest: WER, CER, real-time factor", runEval)
}

const evalUsage = `Usage: asr eval [flags] MANIFEST

Transcribes every utterance of MANIFEST (a TSV path<TAB>text file with an
optional header and speaker column) exactly as "asr transcribe" does, with
the same model, decoding and -vad flags, and compares each transcript as
transcribe prints it with the normalized reference: word and character
error rates with
their substitution, deletion and insertion counts, and the real-time
factor (decoding time per second of audio, model load excluded; with
-j 1 and GOMAXPROCS=1 a single-core figure). -dev-speakers N scores only
the dev split "asr train" holds out of that manifest with the same -seed.

Flags:
`

const evalExamples = `
Examples:

	asr eval testdata/speech/manifest.tsv
	asr eval -beam 1 -json testdata/speech/manifest.tsv
`

func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("eval", evalUsage, evalExamples, stderr)
	modelPath := fs.String("model", "", "model `file` (default: the embedded model)")
	asJSON := fs.Bool("json", false, "print one JSON object per utterance, then the summary object")
	var o speecheval.EvalOptions
	sf := addSearchFlags(fs)
	noFallback := fs.Bool("no-fallback", false, "keep the first decoding even where it looks broken: no CTC fallback (our model), no temperature fallback (Whisper models, whisper.cpp's -nf)")
	vad := fs.Bool("vad", true, "skip non-speech (voice activity detection) and cut chunks in pauses, as asr transcribe; false decodes all audio")
	fs.IntVar(&o.Workers, "j", 1, "utterances decoded in parallel")
	fs.IntVar(&o.Speakers, "dev-speakers", 0, "score only the dev split of this many held-out speakers (as asr train -dev-speakers)")
	fs.Uint64Var(&o.Seed, "seed", 1, "seed of the dev split (as asr train -seed)")
	fs.IntVar(&o.Limit, "limit", 0, "score at most this many utterances")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the decoding to this `file` (go tool pprof)")
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("eval needs one manifest")
	}
	dec, err := sf.decoding(fs)
	if err != nil {
		return err
	}
	dec.Search.NoFallback, dec.Whisper.NoFallback = *noFallback, *noFallback
	o.Transcribe.NoVAD = !*vad
	model, err := speechmodel.Open(*modelPath, &dec)
	if err != nil {
		return err
	}
	speech.SetFFTWorkers(o.Workers)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	rep, err := speecheval.Evaluate(ctx, model, fs.Arg(0), o)
	if err != nil {
		return err
	}
	for _, s := range rep.Skipped {
		fmt.Fprintln(stderr, "asr: skipped", s)
	}
	if *asJSON {
		for _, u := range rep.Utterances {
			if err := cli.WriteJSON(stdout, u); err != nil {
				return err
			}
		}
		return cli.WriteJSON(stdout, map[string]any{
			"utterances": rep.Scores.Utterances, "wer": rep.WER.Rate(), "cer": rep.CER.Rate(),
			"word_errors": rep.WER, "char_errors": rep.CER, "rtf": rep.RTF(), "fallbacks": rep.Fallbacks,
			"audio_seconds": rep.AudioSeconds,
		})
	}
	fmt.Fprintf(stdout, "%d utterances, %.1f min of audio\nWER %v\nCER %v\nRTF %.4f (%d CTC fallbacks)\n",
		rep.Scores.Utterances, rep.AudioSeconds/60, rep.WER, rep.CER, rep.RTF(), rep.Fallbacks)
	return nil
}
