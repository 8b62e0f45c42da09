package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTranscribeLanguageModelFlags runs transcribe as a user would with
// each kind of -lm and with mistakes in the language-model flags.
func TestTranscribeLanguageModelFlags(t *testing.T) {
	hello := filepath.Join("..", "..", "testdata", "hello.wav")
	dir := t.TempDir()
	arpa := filepath.Join(dir, "fox.arpa")
	if err := os.WriteFile(arpa, []byte(`\data\
ngram 1=11

\1-grams:
-1	</s>
-99	<s>
-2	<unk>
-1	the
-1	quick
-1	brown
-1	fox
-1	jumps
-1	over
-1	lazy
-1	dog

\end\
`), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.arpa")
	if err := os.WriteFile(broken, []byte("\\data\\\nngram 1=2\n\n\\1-grams:\n-1\t</s>\nminus one\tdog\n\\end\\\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lexicon := filepath.Join(dir, "words.txt")
	if err := os.WriteFile(lexicon, []byte("\n  \n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("runs", func(t *testing.T) {
		for _, args := range [][]string{
			{"-lm", "none"},
			{"-lm", arpa},
			{"-lm", arpa, "-hotwords", "Quick, brown", "-word-bonus", "-1"},
			{"-ctc-beam", "4", "-hotwords", "fox"},
		} {
			code, stdout, stderr := asrRun(t, "", append(append([]string{"transcribe"}, args...), hello)...)
			if code != 0 || strings.TrimSpace(stdout) == "" {
				t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
			}
		}
	})
	t.Run("only known words with a closed vocabulary", func(t *testing.T) {
		// With a huge out-of-vocabulary penalty every word must be one
		// of the LM's.
		code, stdout, stderr := asrRun(t, "", "transcribe", "-lm", arpa, "-oov-penalty", "1000", "-ctc-beam", "4", hello)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		known := "the quick brown fox jumps over lazy dog"
		for _, w := range strings.Fields(stdout) {
			if !strings.Contains(" "+known+" ", " "+w+" ") {
				t.Errorf("word %q of %q is not in the language model", w, stdout)
			}
		}
	})
	mistakes := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"negative weight", []string{"-lm-weight", "-1"}, 2, "-lm-weight -1"},
		{"negative CTC beam", []string{"-ctc-beam", "-1"}, 2, "-ctc-beam -1"},
		{"NaN bonus", []string{"-word-bonus", "NaN"}, 2, "-word-bonus NaN"},
		{"missing LM", []string{"-lm", filepath.Join(dir, "nope.arpa")}, 1, "nope.arpa"},
		{"malformed LM", []string{"-lm", broken}, 1, "broken.arpa"},
		{"empty lexicon", []string{"-lexicon", lexicon}, 1, "no words"},
		{"hotwords without a word LM", []string{"-lm", "none", "-hotwords", "fox"}, 1, "need a word language model"},
	}
	for _, tc := range mistakes {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := asrRun(t, "", append(append([]string{"transcribe"}, tc.args...), hello)...)
			if code != tc.code || stdout != "" || !strings.Contains(stderr, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d, nothing and %q", code, stdout, stderr, tc.code, tc.stderr)
			}
		})
	}
}
