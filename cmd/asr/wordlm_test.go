package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/attend-go/attend/cmd/internal/cli"
)

// TestWordLMCommands covers train-lm (word n-grams) and perplexity:
// results, and a clear message naming the input and reason for each
// mistake (exit 2 for usage errors).
func TestWordLMCommands(t *testing.T) {
	tmp := t.TempDir()
	sentences := filepath.Join("..", "..", "testdata", "sentences.txt")
	turtle := filepath.Join("..", "..", "models", "lm", "ngram", "testdata", "turtle.arpa")
	turtleBin := filepath.Join("..", "..", "models", "lm", "ngram", "testdata", "turtle.lm.bin.gz")
	empty := filepath.Join(tmp, "empty.txt")
	os.WriteFile(empty, []byte("\n  \n!!!\n"), 0o666)
	manifest := filepath.Join(tmp, "m.tsv")
	os.WriteFile(manifest, []byte("path\ttext\na.wav\tGo forward 10 meters\nb.wav\tturn around\n"), 0o666)
	out := filepath.Join(tmp, "lm.arpa.gz")
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"train", []string{"train-lm", "-o", out, "-order", "3", "-prune", "0,0,1", sentences}, 0, "order 3, 32 words, n-grams 32/", ""},
		{"train from a manifest", []string{"train-lm", "-o", filepath.Join(tmp, "m.arpa"), "-order", "2", "-dev-fraction", "0", manifest}, 0, "order 2, 9 words, n-grams 9/8", ""},
		{"train json", []string{"train-lm", "-json", "-o", out, "-order", "2", sentences}, 0, `"order":2,"words":32,"ngrams":[32,`, ""},
		{"perplexity", []string{"perplexity", "-lm", turtle, manifest}, 0, "2 sentences, 6 words, 0 OOVs (0.00%)", ""},
		{"perplexity json", []string{"perplexity", "-json", "-lm", out, sentences}, 0, `{"sentences":5,"words":42,"oovs":7,`, ""},
		{"mix", []string{"train-lm", "-o", filepath.Join(tmp, "mix.arpa"), "-order", "3", "-dev-fraction", "0", "-mix", turtleBin, "-mix-weight", "0.7", sentences}, 0, "order 3, 124 words, n-grams 124/259/219", ""},
		{"mix pruned", []string{"train-lm", "-o", filepath.Join(tmp, "mixp.arpa"), "-order", "3", "-dev-fraction", "0", "-mix", turtleBin, "-mix-prune", "1e-3", sentences}, 0, "order 3, 124 words, n-grams 124/241/62", ""},
		{"perplexity of a Sphinx model", []string{"perplexity", "-lm", turtleBin, manifest}, 0, "2 sentences, 6 words, 0 OOVs (0.00%)", ""},
		{"mix weight 1", []string{"train-lm", "-o", out, "-mix", turtleBin, "-mix-weight", "1", sentences}, 2, "", "-mix-weight 1: want a share between 0 and 1"},
		{"mix prune negative", []string{"train-lm", "-o", out, "-mix", turtleBin, "-mix-prune", "-1", sentences}, 2, "", "-mix-prune -1: want 0 (keep all) or more"},
		{"mix weight without -mix", []string{"train-lm", "-o", out, "-mix-weight", "0.3", sentences}, 2, "", "-mix-weight only apply with -mix"},
		{"mix with -char", []string{"train-lm", "-char", "-o", out, "-mix", turtleBin, sentences}, 2, "", "-mix only apply to word n-gram models"},
		{"mix missing model", []string{"train-lm", "-o", out, "-mix", filepath.Join(tmp, "no.lm.bin"), sentences}, 1, "", "-mix: language model"},
		{"mix bad model", []string{"train-lm", "-o", out, "-mix", sentences, sentences}, 1, "", `-mix: language model`},
		{"order too high", []string{"train-lm", "-o", out, "-order", "6", sentences}, 2, "", "-order 6: want 2 to 5"},
		{"order too low", []string{"train-lm", "-o", out, "-order", "1", sentences}, 2, "", "-order 1: want 2 to 5"},
		{"prune not numbers", []string{"train-lm", "-o", out, "-prune", "0,x", sentences}, 2, "", `-prune "0,x": "x" is not a whole number`},
		{"prune too long", []string{"train-lm", "-o", out, "-order", "2", "-prune", "0,1,1", sentences}, 2, "", "3 pruning thresholds for an order-2 model"},
		{"prune unigrams", []string{"train-lm", "-o", out, "-prune", "1,1", sentences}, 2, "", "unigrams are never pruned"},
		{"char flag without -char", []string{"train-lm", "-o", out, "-hidden", "8", sentences}, 2, "", "-hidden only apply with -char"},
		{"no output", []string{"train-lm", sentences}, 2, "", "needs -o OUT"},
		{"missing text", []string{"train-lm", "-o", out, filepath.Join(tmp, "nope.txt")}, 1, "", "nope.txt: no such file"},
		{"empty text", []string{"train-lm", "-o", out, empty}, 1, "", "empty.txt: no text"},
		{"perplexity no model", []string{"perplexity", sentences}, 2, "", "needs -lm FILE"},
		{"perplexity missing model", []string{"perplexity", "-lm", filepath.Join(tmp, "no.arpa"), sentences}, 1, "", "no.arpa: no such file"},
		{"perplexity bad model", []string{"perplexity", "-lm", sentences, sentences}, 1, "", `sentences.txt:line 5: unexpected end of file: no \data\ line`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := cli.ExitCode("asr", run(tc.args, nil, &stdout, &stderr), &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d\nstderr: %s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout %q does not contain %q", stdout.String(), tc.stdout)
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tc.stderr)
			}
		})
	}
}
