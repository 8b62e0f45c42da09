package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speechlm"
)

func init() {
	commands.Add("train-lm", "train a word n-gram language model (ARPA), or with -char a character LSTM", runTrainLM)
}

const trainLMUsage = `Usage: asr train-lm -o OUT [flags] TEXT...

Trains a word n-gram language model by interpolated modified Kneser-Ney
and writes it in the ARPA format (gzip-compressed when OUT ends in .gz),
which KenLM, SRILM and "asr perplexity" read. Each TEXT is a plain text
file (one sentence per line), a TSV manifest (its text column, as
"asr train" reads it) or a Kaldi/LibriSpeech directory; every line is
normalized as transcripts are (lower case, numbers spelled out,
punctuation removed). The perplexity on held-out text (-dev, or a
-dev-fraction of the lines) is printed (-json: an object with model,
order, words, ngrams, train_sentences and dev).

-prune lists KenLM-style thresholds from unigrams on: "0,1" drops the
n-grams of order 2 and above seen once (adjusted counts ≤ 1; the last
threshold repeats for the higher orders); unigrams are never pruned.

-mix FILE interpolates the trained model linearly with another word
model, ARPA or a CMU Sphinx binary model (.lm.bin, such as the general
English model of Debian's pocketsphinx-en-us,
/usr/share/pocketsphinx/model/en-us/en-us.lm.bin): every probability is
-mix-weight times the trained model's plus the rest times the other's,
over both vocabularies, with the back-off weights recomputed (SRILM's
-mix-lm). -mix-prune leaves out the other model's n-grams that change
the mixture least (Stolcke's relative-entropy criterion), to keep the
file small. The held-out perplexity is the mixture's.

With -char it trains the character-level LSTM language model instead,
which "asr transcribe -lm OUT" and "asr eval -lm OUT" add to beam search
with weight -lm-weight (shallow fusion). It keeps the model with the
fewest bits per character on held-out lines and prints them (-json: an
object with model and bits_per_char). The flags marked (-char) apply to
it only.

Flags:
`

const trainLMExamples = `
Examples:

	asr train-lm -o /tmp/tiny.arpa.gz -order 3 testdata/sentences.txt
	asr train-lm -char -o /tmp/tiny-lm.safetensors -hidden 16 -max-steps 20 -batch 2 testdata/sentences.txt
	asr train-lm -o /tmp/mixed.arpa.gz -order 3 -mix models/lm/ngram/testdata/turtle.lm.bin.gz -mix-weight 0.7 testdata/sentences.txt

Recipes:

	asr train-lm -o runs/words.arpa.gz -order 4 -prune 0,0,1 ../shared/data/text/*.txt
	asr train-lm -char -o runs/lm.safetensors ../shared/data/text/*.txt
	asr train-lm -o runs/mixed.arpa.gz -order 3 -mix /usr/share/pocketsphinx/model/en-us/en-us.lm.bin -mix-prune 1e-7 ../shared/data/text/*.txt
`

// charOnlyFlags are the flags of the character model.
var charOnlyFlags = []string{"hidden", "batch", "epochs", "max-steps", "lr"}

func runTrainLM(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("train-lm", trainLMUsage, trainLMExamples, stderr)
	out := fs.String("o", "", "output model `file` (required)")
	char := fs.Bool("char", false, "train the character LSTM model instead of word n-grams")
	w := speechlm.DefaultWordLMOptions()
	order := fs.Int("order", w.Order, "n-gram order, 2 to 5")
	prune := fs.String("prune", "", "comma-separated count `thresholds` per order, from unigrams (KenLM's --prune)")
	maxVocab := fs.Int("max-vocab", 0, "keep the `N` most frequent words, the others become <unk> (0: all)")
	var dev stringList
	fs.Var(&dev, "dev", "held-out text `file` for perplexity (repeatable; default: -dev-fraction of the text)")
	devFraction := fs.Float64("dev-fraction", w.DevFraction, "share of the text held out when there is no -dev (0: none)")
	mix := fs.String("mix", "", "interpolate the trained model with this word model `file` (ARPA, or a CMU Sphinx .lm.bin such as pocketsphinx's en-us.lm.bin)")
	mixWeight := fs.Float64("mix-weight", 0.5, "the trained model's share of each probability in the interpolation (-mix), between 0 and 1")
	mixPrune := fs.Float64("mix-prune", 0, "leave out the -mix model's n-grams whose relative-entropy gain is below this `threshold` (0: keep all; 1e-7 keeps about half of en-us.lm.bin)")
	var o speechlm.LMOptions
	fs.IntVar(&o.Config.Hidden, "hidden", 256, "LSTM units (-char)")
	fs.IntVar(&o.BatchSize, "batch", 32, "sentences per batch (-char)")
	fs.IntVar(&o.Epochs, "epochs", 2, "passes over the text (-char)")
	fs.IntVar(&o.MaxSteps, "max-steps", 0, "stop after this many steps, 0: no limit (-char)")
	fs.Float64Var(&o.LR, "lr", 2e-3, "learning rate, Adam (-char)")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed")
	asJSON := cli.JSONFlag(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return cli.Usagef("train-lm needs -o OUT and at least one text file")
	}
	if *char {
		var word []string
		fs.Visit(func(f *flag.Flag) {
			if strings.HasPrefix(f.Name, "mix") {
				word = append(word, "-"+f.Name)
			}
		})
		if len(word) > 0 {
			return cli.Usagef("%s only apply to word n-gram models, not with -char", strings.Join(word, ", "))
		}
		o.Out, o.Text, o.Log = *out, fs.Args(), stderr
		return trainCharLM(o, *asJSON, stdout)
	}
	var bad []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(charOnlyFlags, f.Name) {
			bad = append(bad, "-"+f.Name)
		}
	})
	if len(bad) > 0 {
		return cli.Usagef("%s only apply with -char (the character model)", strings.Join(bad, ", "))
	}
	if *order < 2 || *order > 5 {
		return cli.Usagef("-order %d: want 2 to 5", *order)
	}
	thresholds, err := parsePrune(*prune)
	if err != nil {
		return cli.Usagef("-prune %q: %v", *prune, err)
	}
	if _, err := speechlm.CheckPrune(thresholds, *order); err != nil {
		return cli.Usagef("-prune %q: %v", *prune, err)
	}
	if *maxVocab < 0 {
		return cli.Usagef("-max-vocab %d: want 0 (all words) or more", *maxVocab)
	}
	if *devFraction < 0 || *devFraction >= 1 {
		return cli.Usagef("-dev-fraction %g: want 0 to below 1", *devFraction)
	}
	if *mix == "" {
		var set []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "mix-weight" || f.Name == "mix-prune" {
				set = append(set, "-"+f.Name)
			}
		})
		if len(set) > 0 {
			return cli.Usagef("%s only apply with -mix", strings.Join(set, ", "))
		}
	}
	if !(*mixWeight > 0 && *mixWeight < 1) {
		return cli.Usagef("-mix-weight %g: want a share between 0 and 1 (both excluded)", *mixWeight)
	}
	if !(*mixPrune >= 0) {
		return cli.Usagef("-mix-prune %g: want 0 (keep all) or more", *mixPrune)
	}
	w.Text, w.Out, w.Order, w.Prune, w.MaxVocab = fs.Args(), *out, *order, thresholds, *maxVocab
	w.Mix, w.MixWeight, w.MixPrune = *mix, *mixWeight, *mixPrune
	w.Dev, w.DevFraction, w.Seed, w.Log = dev, *devFraction, o.Seed, stderr
	r, err := speechlm.TrainWordLM(w)
	if me := (*speechlm.MixError)(nil); errors.As(err, &me) {
		return fmt.Errorf("-mix: %w", me.Err)
	}
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, struct {
			Model          string            `json:"model"`
			Order          int               `json:"order"`
			Words          int               `json:"words"`
			NGrams         []int             `json:"ngrams"`
			TrainSentences int               `json:"train_sentences"`
			Dev            *speechlm.LMScore `json:"dev"` // null without held-out text
		}{r.Model, r.Order, r.Words, r.NGrams, r.TrainSentences, r.Dev})
	}
	fmt.Fprintf(stdout, "%s: order %d, %d words, n-grams %s\n", r.Model, r.Order, r.Words, joinInts(r.NGrams))
	if r.Dev != nil {
		fmt.Fprintf(stdout, "held out: %s\n", r.Dev)
	}
	return nil
}

// trainCharLM runs the character LSTM language model's training.
func trainCharLM(o speechlm.LMOptions, asJSON bool, stdout io.Writer) error {
	o.Config.Embed = 0
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	bpc, err := speechlm.TrainLM(ctx, o)
	if err != nil {
		return err
	}
	if asJSON {
		return cli.WriteJSON(stdout, struct {
			Model       string  `json:"model"`
			BitsPerChar float64 `json:"bits_per_char"` // on the held-out text
		}{o.Out, bpc})
	}
	fmt.Fprintf(stdout, "%s: %.3f bits per character on held-out text\n", o.Out, bpc)
	return nil
}

// parsePrune reads a comma-separated list of counts.
func parsePrune(s string) ([]int, error) {
	if s == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not a whole number", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, "/")
}

// stringList is a repeatable string flag.
type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }
