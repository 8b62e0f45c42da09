package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/captioning"
)

func init() {
	commands.Add("eval", "score a caption model on a dataset split: BLEU, METEOR, ROUGE-L, CIDEr-D", runEval)
}

const evalUsage = `Usage: caption eval -cache FILE [flags] DATASET

Captions every image of DATASET's -split from its cached features (built by
"caption features") with greedy search and beam search, and scores the
captions against the references as the COCO caption evaluation does:
BLEU-1 to BLEU-4, METEOR, ROUGE-L and CIDEr-D (captions tokenized in lower
case without punctuation), and counts the captions that say a bigram
twice (rep-2%: "on a bench on a bench"). Prints one table row per
search; -json prints one object: dataset, split, reranked (whether beam
searches were reranked), images and rows, each
with beam (1: greedy), scores (bleu: BLEU-1 to BLEU-4, meteor, rougel:
fractions; ciderd: CIDEr-D on its own scale), repeats_bigram (a
fraction) and seconds of decoding. -no-repeat-ngram and -repeat-penalty
tune the search against repetitions, and -length-penalty its ranking by
length, as for describing.

With the embedded model, beam searches of width 2 or more are reranked by
the embedded memory of the training set, as caption does (-memory none:
not; -memory FILE: by that memory, whatever the model). Reranked, the
rows are by default greedy search, beam 3 and the default search of
caption (beam 30), so that the last row scores what caption says.

-model takes several files, comma-separated: they caption as one
ensemble, each word's probability the mean of theirs. The models must
share the vocabulary, the grid and the encoder (two runs of caption train
on the same data and cache do); an empty name is the embedded model.

Flags:
`

const evalExamples = `
Examples:

	caption eval -model testdata/caption/tiny.safetensors -cache testdata/caption/features-7x7.safetensors -split test testdata/caption

Recipes:

	caption eval -cache flickr8k-7x7.safetensors -split dev ../shared/data/flickr8k
	caption eval -model runs/caption-soft/best.safetensors -beams 1,3,5 -cache flickr8k-test-7x7.safetensors -split test flickr8k
	caption eval -model runs/a/best.safetensors,runs/b/best.safetensors -split dev -cache flickr8k-7x7.safetensors ../shared/data/flickr8k
`

func runEval(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("eval", evalUsage, evalExamples, stderr)
	var o captioning.EvalOptions
	search := captioning.DefaultSearchOptions()
	o.Search = &search
	model := fs.String("model", "", "caption model `file` (default: the embedded model); several, comma-separated, caption as one ensemble")
	fs.StringVar(&o.Cache, "cache", "", "feature cache `file` holding the split's images (required)")
	fs.StringVar(&o.Split, "split", "test", "split to score")
	fs.StringVar(&o.Images, "images", "", "directory of the image files (default: the dataset's own)")
	beams := fs.String("beams", "1,3", "comma-separated beam widths to score (1: greedy search); by default also the default search's width when reranking")
	fs.IntVar(&o.Limit, "n", 0, "score the first n images only (0: all)")
	fs.IntVar(&o.Workers, "j", 1, "goroutines decoding")
	fs.IntVar(&o.Search.MaxLength, "max-words", 30, "the most words a caption may have")
	searchFlags(fs, o.Search)
	allowUnk := fs.Bool("unk", false, "allow <unk> (a word too rare to be learned) in captions; by default the search never says it")
	var rerank captioning.CaptionerOptions // its reranking fields
	rerankFlags(fs, &rerank, "")
	captions := fs.String("captions", "", "write every caption with its references to this JSON `file`")
	asJSON := cli.JSONFlag(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("eval needs one dataset, got %d arguments", fs.NArg())
	}
	if o.Cache == "" {
		return cli.Usagef("eval needs -cache FILE (build one with: caption features -split %s -o FILE %s)", o.Split, fs.Arg(0))
	}
	for _, s := range strings.Split(*beams, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || k < 1 {
			return cli.Usagef("-beams %q: want comma-separated widths ≥ 1", *beams)
		}
		o.Beams = append(o.Beams, k)
	}
	if err := checkSearchFlags(o.Search); err != nil {
		return err
	}
	if err := checkRerankFlags(&rerank, 0); err != nil {
		return err
	}
	o.Dataset = fs.Arg(0)
	o.Search.NoUnk = !*allowUnk
	if *captions != "" {
		if err := cli.CheckWritable(*captions, "-captions"); err != nil { // before the model and the evaluation
			return err
		}
	}
	var m captioning.Searcher
	if files := modelFiles(*model); len(files) > 1 {
		en, encoder, err := captioning.OpenEnsemble(files)
		if err != nil {
			return err
		}
		m, o.Encoder = en, encoder
	} else {
		single, encoder, err := captioning.OpenModelEncoder(*model)
		if err != nil {
			return err
		}
		m, o.Encoder = single, encoder
	}
	rerank.Model = modelFiles(*model)[0]
	var err error
	if o.Rerank, err = captioning.OpenReranking(&rerank); err != nil {
		return err
	}
	beamsSet := false
	fs.Visit(func(f *flag.Flag) { beamsSet = beamsSet || f.Name == "beams" })
	if o.Rerank != nil && !beamsSet {
		if w := captioning.DefaultBeam(true); !slices.Contains(o.Beams, w) {
			o.Beams = append(o.Beams, w) // the search caption runs
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := captioning.Evaluate(ctx, m, o)
	if err != nil {
		return err
	}
	if err := printEval(stdout, o, rep, *asJSON); err != nil {
		return err
	}
	if *captions != "" {
		// Atomically and durably: a crash or a full disk never leaves
		// half a file in place of the last evaluation's.
		return cli.WriteFile(*captions, func(w io.Writer) error {
			enc := json.NewEncoder(w)
			enc.SetIndent("", "  ")
			return enc.Encode(rep.Rows)
		})
	}
	return nil
}

// printEval prints the report as a table, or with asJSON as one object
// without the captions (-captions writes those).
func printEval(stdout io.Writer, o captioning.EvalOptions, rep *captioning.EvalReport, asJSON bool) error {
	if asJSON {
		table := *rep
		table.Rows = slices.Clone(rep.Rows)
		for i := range table.Rows {
			table.Rows[i].Captions = nil
		}
		return cli.WriteJSON(stdout, struct {
			Dataset  string `json:"dataset"`
			Split    string `json:"split"`
			Reranked bool   `json:"reranked"`
			*captioning.EvalReport
		}{o.Dataset, o.Split, o.Rerank != nil, &table})
	}
	fmt.Fprintf(stdout, "%s, split %s: %d images\n", o.Dataset, o.Split, rep.Images)
	if o.Rerank != nil {
		fmt.Fprintf(stdout, "beam searches reranked by %s\n", o.Rerank)
	}
	fmt.Fprintf(stdout, "%-8s %7s %7s %7s %7s %7s %7s %7s %7s %8s\n", "search", "BLEU-1", "BLEU-2", "BLEU-3", "BLEU-4", "METEOR", "ROUGE-L", "CIDEr-D", "rep-2%", "time")
	for _, r := range rep.Rows {
		name := "greedy"
		if r.Beam > 1 {
			name = fmt.Sprintf("beam %d", r.Beam)
		}
		s := r.Scores
		fmt.Fprintf(stdout, "%-8s %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.3f %7.1f %7.1fs\n", name,
			100*s.BLEU[0], 100*s.BLEU[1], 100*s.BLEU[2], 100*s.BLEU[3], 100*s.METEOR, 100*s.ROUGEL, s.CIDErD, 100*r.RepeatsBigram, r.Seconds)
	}
	return nil
}

// modelFiles splits a -model value into its comma-separated files; a
// file whose own name holds a comma is taken whole.
func modelFiles(v string) []string {
	if _, err := os.Stat(v); err == nil || !strings.Contains(v, ",") {
		return []string{v}
	}
	files := strings.Split(v, ",")
	for i := range files {
		files[i] = strings.TrimSpace(files[i])
	}
	return files
}
