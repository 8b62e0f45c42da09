package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/synth"
)

func init() {
	commands.Add("synth", "render sentences with the installed TTS engines into labelled training audio", runSynth)
}

const synthUsage = `Usage: asr synth -o DIR [flags] TEXTFILE...
       asr synth -list

Renders sentences (one per line) through the text-to-speech engines
installed — espeak-ng with its accents and voice variants, flite voices,
festival voices — into 16 kHz mono 16-bit WAV clips with a manifest for
"asr train":

	DIR/manifest.tsv    path<TAB>text<TAB>speaker (speaker = engine/voice)
	DIR/wav/NNNNNN.wav  one clip per sentence, named by its index

Each clip draws its engine (uniformly), voice, speaking rate and pitch,
and optionally room reverberation, white/pink/brown noise at an SNR and
a telephone line (4 kHz band, G.711 µ-law), from -seed and its sentence index alone: the
same command gives the same clips with any -j. Running it again renders
only missing clips (after Ctrl-C, say) and rewrites the manifest. Lines
with digits, all-capital words or symbols an engine would read aloud are
skipped, since the transcript could not match the speech. Engines that are
not installed are skipped with a note; with none the command fails.

The summary goes to stdout; -json prints it as one object (manifest,
clips, rendered, reused, failures, audio_seconds, per_voice,
elapsed_seconds), and -list -json one object per engine (engine,
installed, voices, and error when it is not used).

Flags:
`

const synthExamples = `
Examples:

	asr synth -list

Recipes:

	asr synth -o /tmp/synth-demo -limit 3 testdata/sentences.txt
	# 3000 sentences of 3–20 words from every text file, one worker
	asr synth -o /work/synth -limit 3000 -min-words 3 -max-words 20 -j 1 ../shared/data/text/*.txt
`

func runSynth(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("synth", synthUsage, synthExamples, stderr)
	o := synth.Options{
		Tempo: synth.DefaultTempo, Pitch: synth.DefaultPitch, RT60: synth.DefaultRT60, DRR: synth.DefaultDRR,
		SNR: synth.DefaultSNR, Peak: synth.DefaultPeak,
	}
	var out string
	fs.StringVar(&out, "o", "", "output `directory` (required)")
	fs.StringVar(&out, "out", "", "output `directory` (same as -o)")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed: sentence sample, voices, rates, augmentation")
	limit := fs.Int("limit", 0, "render this many sentences, drawn at random (seeded) from all files (0: all)")
	workers := fs.Int("j", runtime.NumCPU(), "clips rendered in parallel")
	var text synth.TextOptions
	fs.IntVar(&text.MinWords, "min-words", 0, "skip sentences with fewer words (0: no limit)")
	fs.IntVar(&text.MaxWords, "max-words", 0, "skip sentences with more words (0: no limit)")
	fs.IntVar(&text.MaxChars, "max-chars", 0, "skip sentences with longer transcripts (0: no limit)")
	engines := fs.String("engines", "", "comma-separated `engines` to use: espeak-ng, flite, festival (default: all installed)")
	voices := fs.String("voices", "", "use only voices whose engine/voice name matches this `regexp`")
	fs.Var(&o.Tempo, "tempo", "speaking-rate factor `range` MIN,MAX relative to each voice")
	fs.Var(&o.Tempo, "rate", "speaking-rate factor `range` (same as -tempo)")
	fs.Var(&o.Pitch, "pitch", "frequency-scale factor `range` applied by resampling (moves pitch and formants)")
	fs.Float64Var(&o.Reverb, "reverb", 0.3, "fraction of clips with synthetic room reverberation")
	fs.Var(&o.RT60, "rt60", "reverberation time `range` in seconds")
	fs.Var(&o.DRR, "drr", "direct-to-reverberant ratio `range` in dB")
	fs.Float64Var(&o.Noise, "noise", 0.75, "fraction of clips with white, pink or brown noise")
	fs.Var(&o.SNR, "snr", "signal-to-noise ratio `range` in dB")
	fs.Float64Var(&o.Telephone, "telephone", 0, "fraction of clips passed through a telephone line (4 kHz band, G.711 µ-law)")
	fs.Var(&o.Peak, "peak", "peak level `range` in dBFS")
	list := fs.Bool("list", false, "list the engines and voices found and exit")
	asJSON := cli.JSONFlag(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if err := o.Validate(); err != nil {
		return cli.Usagef("%s", strings.TrimPrefix(err.Error(), "synth: "))
	}
	var filter *regexp.Regexp
	if *voices != "" {
		var err error
		if filter, err = regexp.Compile(*voices); err != nil {
			return cli.Usagef("-voices %q: %v", *voices, err)
		}
	}
	var names []string
	if *engines != "" {
		names = strings.Split(*engines, ",")
	}
	chosen, err := synth.SelectEngines(names)
	if err != nil {
		return cli.Usagef("-engines: %s", strings.TrimPrefix(err.Error(), "synth: "))
	}
	if !*list {
		switch {
		case out == "":
			fs.Usage()
			return cli.Usagef("synth needs an output directory (-o)")
		case fs.NArg() == 0:
			fs.Usage()
			return cli.Usagef("synth needs at least one text file")
		case *limit < 0:
			return cli.Usagef("-limit %d: must not be negative", *limit)
		case *workers < 1:
			return cli.Usagef("-j %d: must be at least 1", *workers)
		case text.MinWords < 0 || text.MaxWords < 0 || text.MaxChars < 0:
			return cli.Usagef("-min-words, -max-words and -max-chars must not be negative")
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	found := synth.Discover(ctx, chosen, filter)
	if *list {
		if *asJSON {
			return writeVoicesJSON(stdout, found)
		}
		printVoices(stdout, found)
		return nil
	}
	reportEngines(stderr, "synth: ", found)

	sentences, err := readSentences(fs.Args(), &text, stderr)
	if err != nil {
		return err
	}
	sentences = synth.Select(sentences, *limit, o.Seed)
	fmt.Fprintf(stderr, "synth: rendering %d sentences into %s with %d workers\n", len(sentences), out, *workers)
	start := time.Now()
	sum, err := synth.Run(ctx, &synth.Job{
		Dir: out, Sentences: sentences, Voices: found, Options: o, Workers: *workers, Log: stderr,
	})
	if errors.Is(err, synth.ErrNoEngine) {
		return fmt.Errorf("%w: install espeak-ng, flite or festival (Debian packages of those names)", err)
	}
	if errors.Is(err, context.Canceled) && sum != nil {
		err = fmt.Errorf("interrupted after %d clips; run the same command again to render the rest", sum.Clips)
	}
	elapsed := time.Since(start)
	switch {
	case sum != nil && *asJSON:
		if sum.Failures == nil {
			sum.Failures = []string{}
		}
		if err := cli.WriteJSON(stdout, struct {
			*synth.Summary
			Elapsed float64 `json:"elapsed_seconds"`
		}{sum, elapsed.Seconds()}); err != nil {
			return err
		}
	case sum != nil:
		fmt.Fprintf(stdout, "%s: %d clips (%d rendered, %d reused, %d failed), %.0f s (%.2f h) of audio, %d voices, in %s\n",
			sum.Manifest, sum.Clips, sum.Rendered, sum.Reused, len(sum.Failures), sum.Seconds, sum.Seconds/3600,
			len(sum.PerVoice), elapsed.Round(time.Second))
	}
	if err != nil {
		return err
	}
	if len(sum.Failures) > 0 {
		return fmt.Errorf("%w: %d of %d sentences failed", cli.ErrReported, len(sum.Failures), len(sentences))
	}
	return nil
}

// readSentences reads every text file and reports what was skipped.
func readSentences(paths []string, o *synth.TextOptions, stderr io.Writer) ([]synth.Sentence, error) {
	var all []synth.Sentence
	skipped := map[string]int{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		s, skip, err := synth.ReadSentences(f, path, o)
		f.Close()
		if err != nil {
			return nil, err
		}
		all = append(all, s...)
		for k, v := range skip {
			skipped[k] += v
		}
	}
	if len(skipped) > 0 {
		reasons := make([]string, 0, len(skipped))
		for k, v := range skipped {
			reasons = append(reasons, fmt.Sprintf("%d %s", v, k))
		}
		sort.Strings(reasons)
		fmt.Fprintf(stderr, "synth: %d sentences usable; skipped %s\n", len(all), strings.Join(reasons, ", "))
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no usable sentences in %s", strings.Join(paths, ", "))
	}
	return all, nil
}

// reportEngines prints one line per engine: used or why not.
func reportEngines(w io.Writer, prefix string, found []synth.Found) {
	for _, f := range found {
		switch {
		case f.Err == nil:
			fmt.Fprintf(w, "%s%s: used with %d voices\n", prefix, f.Engine.Name(), len(f.Voices))
		case errors.Is(f.Err, synth.ErrNotInstalled):
			fmt.Fprintf(w, "%s%s: not installed (skipped)\n", prefix, f.Engine.Name())
		default:
			fmt.Fprintf(w, "%s%s: skipped: %v\n", prefix, f.Engine.Name(), f.Err)
		}
	}
}

// writeVoicesJSON writes one JSON object per engine: its name, whether it
// is installed, its voices as engine/voice, and why it is not used.
func writeVoicesJSON(w io.Writer, found []synth.Found) error {
	for _, f := range found {
		e := struct {
			Engine    string   `json:"engine"`
			Installed bool     `json:"installed"`
			Voices    []string `json:"voices"`
			Error     string   `json:"error,omitempty"`
		}{Engine: f.Engine.Name(), Installed: !errors.Is(f.Err, synth.ErrNotInstalled), Voices: []string{}}
		for _, v := range f.Voices {
			e.Voices = append(e.Voices, synth.Voice{Engine: f.Engine.Name(), Name: v}.String())
		}
		if f.Err != nil {
			e.Error = f.Err.Error()
		}
		if err := cli.WriteJSON(w, e); err != nil {
			return err
		}
	}
	return nil
}

// printVoices lists each engine's status and its voices as engine/voice.
func printVoices(w io.Writer, found []synth.Found) {
	reportEngines(w, "", found)
	for _, f := range found {
		for _, v := range f.Voices {
			fmt.Fprintln(w, synth.Voice{Engine: f.Engine.Name(), Name: v})
		}
	}
}
