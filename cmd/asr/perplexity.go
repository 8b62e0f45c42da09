package main

import (
	"fmt"
	"io"

	"github.com/attend-go/attend/cmd/internal/cli"
	"github.com/attend-go/attend/pipeline/speechlm"
)

func init() {
	commands.Add("perplexity", "score text with a word n-gram language model (ARPA or Sphinx .lm.bin)", runPerplexity)
}

const perplexityUsage = `Usage: asr perplexity -lm FILE [flags] TEXT...

Scores text with a word n-gram model in the ARPA format (plain or gzip;
from "asr train-lm", KenLM or SRILM) or a CMU Sphinx binary model
(.lm.bin, such as /usr/share/pocketsphinx/model/en-us/en-us.lm.bin of
Debian's pocketsphinx-en-us). TEXT is read as "asr train-lm"
reads it: plain text, one sentence per line, or a manifest, normalized as
transcripts are. It prints the perplexity with SRILM's conventions:
words outside the model's vocabulary (OOVs) are left out, "ppl" counts
each sentence's </s> as a token and "ppl1" does not. -json: an object
with sentences, words, oovs, oov_rate, log10_prob, perplexity and
perplexity_no_end.

Flags:
`

const perplexityExamples = `
Examples:

	asr perplexity -lm models/lm/ngram/testdata/turtle.arpa testdata/sentences.txt
`

func runPerplexity(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := cli.NewFlagSet("perplexity", perplexityUsage, perplexityExamples, stderr)
	lm := fs.String("lm", "", "ARPA or Sphinx .lm.bin model `file` (required)")
	lower := fs.Bool("lower", false, "lower-case the model's words (for upper-case models)")
	asJSON := cli.JSONFlag(fs)
	if ok, err := cli.Parse(fs, args); !ok {
		return err
	}
	if *lm == "" || fs.NArg() == 0 {
		return cli.Usagef("perplexity needs -lm FILE and at least one text file")
	}
	r, err := speechlm.LMPerplexity(*lm, fs.Args(), *lower)
	if err != nil {
		return err
	}
	if *asJSON {
		return cli.WriteJSON(stdout, r)
	}
	fmt.Fprintln(stdout, r)
	return nil
}
