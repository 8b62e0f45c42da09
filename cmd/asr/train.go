package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speechdata"
	"github.com/attend-go/attend/pipeline/speechmodel"
	"github.com/attend-go/attend/pipeline/speechtrain"
)

func init() {
	commands.Add("train", "train a speech recognition model on manifests of audio and text", runTrain)
}

const trainUsage = `Usage: asr train -o DIR [flags] MANIFEST...

Trains a Listen-Attend-Spell model (pyramidal BiLSTM listener, LSTM speller
with location-aware attention, joint CTC head) on the utterances of the
manifests: TSV files (path<TAB>text, header optional, a speaker column
used for the dev split), LibriSpeech-style directories (*.trans.txt +
FLAC) or Kaldi data directories (wav.scp + text). Transcripts are
normalized (lower case, digits spelled out, punctuation removed).

Without -dev, whole speakers of the first manifest (-dev-speakers) are
held out as the dev set and never trained on. After each epoch the dev set
is transcribed (greedy) and scored: DIR/best.safetensors keeps the model
with the lowest dev CER; training stops after -patience epochs without
improvement. -snapshots N keeps the weights of the N latest dev
evaluations as DIR/snapshot-STEP.safetensors, for "asr average" to make
one better model of them; -snapshot-every S adds one every S optimizer
steps between evaluations (a long epoch then leaves several to
average). DIR/last.safetensors is a checkpoint written every few
minutes and on Ctrl-C; -resume continues from it. The log
goes to stderr and DIR/train.log; the summary, to stdout (-json: one
object with best_model, best_cer, best_wer, best_epoch, epochs, steps,
train_utts, dev_utts, train_hours and stopped).

Augmentation: SpecAugment always; -telephone passes a fraction of the
audio through a telephone line (4 kHz band, G.711 µ-law or A-law); -speed adds speed-perturbed copies; -augment N adds N copies of
each real utterance, each with its own seeded VTLP warp (-vtlp range),
room reverberation (30 % of copies) and noise at 5-30 dB SNR (babble of
3-6 other training utterances, white/pink/brown noise, or with -noise-dir
non-speech sounds such as Debian's music on hold). Manifests named
by -synthetic (already augmented TTS) are trained on once, without copies;
the log's "data:" line gives the hours of real speech, its copies and
synthetic speech.

Learning rate: Adam's rate rises over -warmup steps to -lr, and halves
after 3 epochs without a better dev CER. -anneal N instead lowers it
after the warm-up along a half cosine to zero over N steps and stops
the run there (Loshchilov & Hutter 2017): the way to end a fine-tune,
whose last snapshot is then the model.

Speed: a step runs on GOMAXPROCS threads inside its fused ops. With the
flag -replicas R each batch is split into R sub-batches, each run in its
own graph on its own goroutine, and their gradients are added in a fixed
order: a run's result depends on R but not on GOMAXPROCS. On two idle
cores -replicas 2 trains about 15% faster than 1; each step costs a few
percent more CPU and each replica compiles its own graphs (about 60 MB
more per batch shape), so on cores shared with other work it is slower.
The features of all the training audio stay in memory, about 0.2 GB per
hour of audio: set GOMEMLIMIT a few GB above that and below the
machine's memory (below it the collector runs all the time: 80.8 h
trained 1.6× slower with GOMEMLIMIT=11GiB than with 19GiB).

Phone CTC (Toshniwal et al. 2017): -phone-ctc-weight λp adds an
auxiliary CTC loss over each transcript's phones on a lower listener
layer (-phone-ctc-layer, default 0: the first), so that with little data
the encoder learns sounds as well as spellings; the loss becomes
(1-λ-λp)·attention + λ·CTC + λp·phone CTC. The phones are the 39
ARPAbet phones of the first pronunciation of each word in the
-pronunciations dictionary (CMU format; default Debian's
pocketsphinx-en-us, /usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict);
utterances with a word it lacks get no phone loss (the log counts them).
With -init, a model without the head gets one, freshly initialized from
-seed: the way to fine-tune the shipped model. The log lines add the
phone CTC loss per phone. Decoding adds the head's score of each
candidate's pronunciations to its joint rescoring (-phone-weight).

Deeper listener: -listener-flat N makes the top N of the -listener-layers
flat: they keep the frame rate (60 ms by default, what the character CTC
head needs) and are residual, y = x + BiLSTM(x) (Wu et al. 2016). With
-init, a -listener-layers larger than the file's grows its model by the
difference as flat residual layers, freshly initialized from -seed with
their output gates biased to -3, so that training starts from nearly
the loaded model's function (the log says "added N residual listener
layer(s)"); fewer layers than the file's is an error, and -listener-flat
then only checks the grown model's number of flat layers.

Flags:
`

const trainExamples = `
Examples:

	asr train -overwrite -o /tmp/asr-tiny -tiny -batch 4 -max-steps 4 -dev-speakers 1 -snapshots 2 -speed 0.9,1.1 -replicas 2 testdata/speech/manifest.tsv
	asr train -overwrite -o /tmp/asr-tiny-phone -tiny -batch 4 -max-steps 2 -dev-speakers 1 -phone-ctc-weight 0.2 -pronunciations testdata/speech/cmudict-tiny.dict testdata/speech/manifest.tsv
	asr train -overwrite -o /tmp/asr-tiny-aug -tiny -batch 4 -warmup 1 -anneal 1 -dev-speakers 1 -augment 1 -vtlp 0.9,1.1 -synthetic testdata/speech/synthetic.tsv testdata/speech/manifest.tsv testdata/speech/synthetic.tsv

Recipes:

	# the default model (see docs/model-card-asr.md and docs/training-speech.md)
	asr train -o runs/asr -telephone 0.1 ../shared/data/speechocean762/train.tsv synth/manifest.tsv
	asr train -o runs/asr -resume ../shared/data/speechocean762/train.tsv synth/manifest.tsv
	# fine-tune the shipped model with a phone CTC head on the first listener layer
	asr train -o runs/asr-phone -init models/asr/default.safetensors -phone-ctc-weight 0.2 -lr 2e-4 -warmup 200 -telephone 0.1 ../shared/data/speechocean762/train.tsv synth/manifest.tsv
	# grow the shipped model's listener by one flat residual layer (3 layers, 60 ms frames) and fine-tune it
	asr train -o runs/grow -init models/asr/default.safetensors -listener-layers 3 -lr 2e-4 -warmup 200 -telephone 0.1 ../shared/data/speechocean762/train.tsv synth/manifest.tsv
	# two augmented copies of the real speech, none of the synthetic
	asr train -o runs/asr-aug -augment 2 -telephone 0.1 -synthetic synth/manifest.tsv ../shared/data/speechocean762/train.tsv synth/manifest.tsv
	# ... with music on hold and desktop sounds as noise too (apt-get install asterisk-moh-opsound-wav sound-theme-freedesktop)
	asr train -o runs/asr-aug -augment 2 -noise-dir /usr/share/asterisk/moh,/usr/share/sounds/freedesktop -synthetic synth/manifest.tsv ../shared/data/speechocean762/train.tsv synth/manifest.tsv
`

func runTrain(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("train", trainUsage, trainExamples, stderr)
	o := speechtrain.TrainOptions{Setup: speechtrain.TrainDefaults()}
	cli.TrainFlags(fs, &o.Setup, trainText)
	dev := fs.String("dev", "", "comma-separated dev `manifests` (default: hold out speakers of the first manifest)")
	fs.IntVar(&o.DevSpeakers, "dev-speakers", 12, "whole speakers of the first manifest held out as dev when -dev is not given")
	fs.IntVar(&o.MaxDev, "max-dev", 0, "score at most this many dev utterances per epoch (0: all)")
	fs.BoolVar(&o.NoSpecAugment, "no-specaugment", false, "turn SpecAugment off")
	fs.Float64Var(&o.Telephone, "telephone", 0, "fraction of training audio passed through a telephone line (4 kHz band, G.711 µ-law or A-law)")
	speeds := fs.String("speed", "", "comma-separated speed-perturbation `factors`, e.g. 0.9,1.1: each adds a copy of the training audio played that much faster")
	fs.IntVar(&o.Augment, "augment", 0, fmt.Sprintf("add `N` (0 to %d) augmented copies of each real utterance: VTLP warp, then reverberation (30 %%), then noise or babble at 5–30 dB SNR", speechtrain.MaxAugment))
	vtlp := fs.String("vtlp", "0.85,1.2", fmt.Sprintf("`LO,HI` range of the augmented copies' VTLP factors, within [%g, %g] (1,1: no warp)", speechtrain.MinWarp, speechtrain.MaxWarp))
	synthetic := fs.String("synthetic", "", "comma-separated training `manifests` of synthetic speech: trained on once, without speed or augmented copies")
	noiseDirs := fs.String("noise-dir", "", "comma-separated `directories` of non-speech sounds (music, bells; any audio files) mixed into some augmented copies, e.g. /usr/share/asterisk/moh")
	fs.IntVar(&o.Replicas, "replicas", 1, fmt.Sprintf("split each batch into `R` sub-batches trained concurrently, one graph and goroutine each (1 to %d, at most -batch; 1: one graph per batch); more than 1 pays only with as many idle cores", speechtrain.MaxReplicas))
	tiny := fs.Bool("tiny", false, "a tiny model for smoke tests (16 units per layer)")
	hidden := fs.Int("listener-hidden", 0, "listener BiLSTM units per direction (default 256)")
	layers := fs.Int("listener-layers", 0, "listener layers; each after the first halves time, but the -listener-flat top ones (default 2); with -init, more than the file's add flat layers to it")
	flat := fs.Int("listener-flat", 0, "top listener layers that keep time and are residual, y = x + BiLSTM(x) (default 0); with -init, the number the grown model must have")
	speller := fs.Int("speller-hidden", 0, "speller LSTM units (default 256)")
	stack := fs.Int("stack", 0, "frames stacked per listener step (default 3)")
	ctc := fs.Float64("ctc-weight", 0, "weight of the joint CTC loss in [0, 1); negative for none (default 0.3)")
	fs.Float64Var(&o.Config.PhoneCTCWeight, "phone-ctc-weight", 0, "weight λp of an auxiliary phone CTC loss on a lower listener layer; CTC weight + λp < 1 (0: no phone head; with -init, adds one to a model without it)")
	fs.IntVar(&o.Config.PhoneCTCLayer, "phone-ctc-layer", 0, "listener layer (0-based) the phone CTC head reads")
	fs.StringVar(&o.Pronunciations, "pronunciations", "", "CMU-format pronouncing dictionary `file` for the phone CTC targets (default "+speechdata.DefaultPronunciations+", from Debian's pocketsphinx-en-us)")
	mpiJob := cli.MPIFlags(fs)
	mpiJob.BucketFlag(fs)
	asJSON := cli.JSONFlag(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if err := cli.CheckTrain(&o.Setup); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.Usagef("train needs at least one manifest")
	}
	if hi := min(speechtrain.MaxReplicas, o.BatchSize); o.Replicas < 1 || o.Replicas > hi {
		return cli.Usagef("-replicas %d: want 1 to %d (at most -batch %d)", o.Replicas, hi, o.BatchSize)
	}
	if !(o.Telephone >= 0 && o.Telephone <= 1) {
		return cli.Usagef("-telephone %g: want a fraction in [0, 1]", o.Telephone)
	}
	if *speeds != "" {
		for _, f := range strings.Split(*speeds, ",") {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || !(v >= speechtrain.MinSpeed && v <= speechtrain.MaxSpeed) {
				return cli.Usagef("-speed %q: want factors in [%g, %g] separated by commas", *speeds, speechtrain.MinSpeed, speechtrain.MaxSpeed)
			}
			o.Speeds = append(o.Speeds, v)
		}
	}
	o.Train = fs.Args()
	if err := parseAugment(fs, &o, *vtlp, *synthetic); err != nil {
		return err
	}
	if *noiseDirs != "" {
		if o.Augment == 0 {
			return cli.Usagef("-noise-dir needs -augment N: only augmented copies get noise")
		}
		o.NoiseDirs = strings.Split(*noiseDirs, ",")
	}
	if *dev != "" {
		o.Dev = strings.Split(*dev, ",")
	}
	phoneWeight, phoneLayer := o.Config.PhoneCTCWeight, o.Config.PhoneCTCLayer
	o.Config = speechmodel.DefaultModelConfig()
	c := &o.Config
	c.PhoneCTCWeight, c.PhoneCTCLayer = phoneWeight, phoneLayer
	if *tiny {
		c.ListenerHidden, c.SpellerHidden, c.Embed, c.AttentionDim, c.LocationFilters, c.LocationWidth = 16, 16, 8, 8, 2, 5
	} else {
		// Zero sizes take their defaults in Defaults.
		c.ListenerHidden, c.SpellerHidden, c.Stack = *hidden, *speller, *stack
	}
	if err := listenerDepth(fs, &o, *layers, *flat); err != nil {
		return err
	}
	switch {
	case *ctc < 0: // the flag's "none"
		c.CTCWeight = 0
	case *ctc > 0:
		c.CTCWeight = *ctc
	}
	if err := o.Config.Defaults().Validate(); err != nil {
		return cli.Usagef("%v", err)
	}
	if c.PhoneCTCWeight > 0 {
		path := o.Pronunciations
		if path == "" {
			path = speechdata.DefaultPronunciations
		}
		if _, err := os.Stat(path); err != nil {
			return fmt.Errorf("-phone-ctc-weight needs a pronouncing dictionary: %v (apt-get install pocketsphinx-en-us, or give -pronunciations FILE)", err)
		}
	}
	o.Log = stderr
	if err := mpiJob.Join(&o.Setup); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sum, err := speechtrain.Train(ctx, o)
	if err := mpiJob.End(trainError(err, *flat, *layers), "asr train", stderr); err != nil || !mpiJob.Lead() {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, sum)
	}
	fmt.Fprintf(stdout, "best model: %s (dev CER %.2f%%, WER %.2f%% at epoch %d; %s)\n", sum.Best, 100*sum.BestCER, 100*sum.BestWER, sum.BestEpoch, sum.Stopped)
	return nil
}

// trainError turns speechtrain.Train's errors into what the command says.
func trainError(err error, flat, layers int) error {
	switch {
	case errors.Is(err, speechtrain.ErrCheckpointExists):
		return cli.Usagef("%v (--resume continues it, --overwrite starts afresh)", err)
	case errors.Is(err, speechtrain.ErrNoPronunciations):
		return fmt.Errorf("%w (-pronunciations FILE)", err)
	case errors.Is(err, speechtrain.ErrListenerFlat):
		return cli.Usagef("-listener-flat %d: %v", flat, err)
	case errors.Is(err, speechtrain.ErrListenerDepth):
		return cli.Usagef("-listener-layers %d: %v", layers, err)
	case err != nil:
		return cli.TrainError(err)
	}
	return nil
}

// parseAugment checks -augment and sets o.VTLP and o.Synthetic from -vtlp
// and -synthetic.
func parseAugment(fs *flag.FlagSet, o *speechtrain.TrainOptions, vtlp, synthetic string) error {
	if o.Augment < 0 || o.Augment > speechtrain.MaxAugment {
		return cli.Usagef("-augment %d: want 0 to %d copies", o.Augment, speechtrain.MaxAugment)
	}
	lohi := strings.Split(vtlp, ",")
	var err error
	if len(lohi) == 2 {
		for i, f := range lohi {
			if o.VTLP[i], err = strconv.ParseFloat(strings.TrimSpace(f), 64); err != nil {
				break
			}
		}
	}
	if w := o.VTLP; len(lohi) != 2 || err != nil || !(w[0] >= speechtrain.MinWarp && w[0] <= w[1] && w[1] <= speechtrain.MaxWarp) {
		return cli.Usagef("-vtlp %q: want LO,HI with %g ≤ LO ≤ HI ≤ %g", vtlp, speechtrain.MinWarp, speechtrain.MaxWarp)
	}
	if o.Augment == 0 {
		var set bool
		fs.Visit(func(f *flag.Flag) { set = set || f.Name == "vtlp" })
		if set {
			return cli.Usagef("-vtlp needs -augment N: only augmented copies are warped")
		}
	}
	if synthetic != "" {
		o.Synthetic = strings.Split(synthetic, ",")
	}
	for _, path := range o.Synthetic {
		if !slices.ContainsFunc(o.Train, func(t string) bool { return filepath.Clean(t) == filepath.Clean(path) }) {
			return cli.Usagef("-synthetic %s: not among the training manifests %s", path, strings.Join(o.Train, " "))
		}
	}
	return nil
}

// listenerDepth sets the listener's depth from -listener-layers and
// -listener-flat: the new model's, or with -init the depth to grow the
// file's model to (checked against the file when it is read).
func listenerDepth(fs *flag.FlagSet, o *speechtrain.TrainOptions, layers, flat int) error {
	if layers < 0 || flat < 0 {
		return cli.Usagef("-listener-layers %d, -listener-flat %d: want counts of layers, not negative", layers, flat)
	}
	if o.Init != "" {
		var flatSet bool
		fs.Visit(func(f *flag.Flag) { flatSet = flatSet || f.Name == "listener-flat" })
		if flatSet && flat == 0 {
			return cli.Usagef("-listener-flat 0 with -init: the model file sets its flat layers; give the number the grown model must have, or leave the flag out")
		}
		o.InitListenerLayers, o.InitListenerFlat = layers, flat
		if layers > 0 { // so that -phone-ctc-layer may name a new layer
			o.Config.ListenerLayers = layers
		}
		return nil
	}
	if layers > 0 {
		o.Config.ListenerLayers = layers
	}
	if n := o.Config.ListenerLayers; flat >= n {
		return cli.Usagef("-listener-flat %d: want fewer than the %d listener layers (-listener-layers): the first reads the stacked frames and cannot be flat", flat, n)
	}
	o.Config.ListenerFlat = flat
	return nil
}

// trainText is what asr train's shared training flags say of its own.
var trainText = cli.TrainText{
	Command: "asr", Examples: "utterances", Patience: "epochs without a better dev CER",
	Workers: "goroutines for loading data and scoring dev",
	BF16:    "run the matrix products in bfloat16 with float32 sums: steps 1.6× faster on one core, 1.4× on two (2.1× with -replicas 2 on idle cores) on CPUs with AVX512_BF16 (Zen 4, Sapphire Rapids), an error elsewhere; weights stay float32",
	Seed:    "dev split, batches, masks, initialization",
}
