package ngram

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// arpa assembles an ARPA text from its header counts and sections.
func arpa(header string, sections ...string) string {
	return "\\data\\\n" + header + "\n" + strings.Join(sections, "\n") + "\n\\end\\\n"
}

const (
	uni2 = "\\1-grams:\n-1\t<s>\t-0.5\n-1\ta\t-0.2\n-1\tb\n-1\t</s>\n"
	uni1 = "\\1-grams:\n-1\t<s>\n-1\ta\n-1\tb\n-1\t</s>\n"
	big2 = "\\2-grams:\n-0.5\t<s> a\n-0.5\ta b\n"
)

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
		line             int
	}{
		{"empty", "", `no \data\`, 0},
		{"no data line", "hello\nworld\n", `no \data\`, 2},
		{"no counts", "\\data\\\n\\1-grams:\n", `no "ngram 1=count"`, 2},
		{"bad count line", "\\data\\\nngram one=4\n", "bad order or count", 2},
		{"count line garbage", "\\data\\\nngrams 1=4\n", `want "ngram N=count"`, 2},
		{"orders skip", "\\data\\\nngram 1=4\nngram 3=1\n", "want 2-grams next", 3},
		{"negative count", "\\data\\\nngram 1=-4\n", "bad order or count", 2},
		{"missing section", arpa("ngram 1=4\nngram 2=2", uni2), "want \\2-grams:", 10},
		{"section count differs", arpa("ngram 1=5", uni1), "has 4 entries, the header says 5", 9},
		{"wrong section", arpa("ngram 1=4\nngram 2=2", uni2, strings.Replace(big2, "2-grams", "3-grams", 1)), "want \\2-grams:", 10},
		{"NaN", arpa("ngram 1=4", strings.Replace(uni1, "-1\ta", "NaN\ta", 1)), "not a finite number", 5},
		{"text prob", arpa("ngram 1=4", strings.Replace(uni1, "-1\ta", "x\ta", 1)), `log10 probability "x"`, 5},
		{"positive prob", arpa("ngram 1=4", strings.Replace(uni1, "-1\ta", "0.5\ta", 1)), "positive", 5},
		{"bad back-off", arpa("ngram 1=4\nngram 2=2", strings.Replace(uni2, "-0.2", "abc", 1), big2), `log10 back-off "abc"`, 6},
		{"too many fields", arpa("ngram 1=4", strings.Replace(uni1, "\tb\n", "\tb c d\n", 1)), "4 fields in a 1-gram entry", 6},
		{"too few fields", arpa("ngram 1=4\nngram 2=2", uni2, strings.Replace(big2, "<s> a", "<s>", 1)), "2 fields in a 2-gram entry", 11},
		{"order mismatch", arpa("ngram 1=4\nngram 2=2", uni2, strings.Replace(big2, "<s> a", "<s> a b c", 1)), "5 fields in a 2-gram", 11},
		{"top-order back-off", arpa("ngram 1=4\nngram 2=2", uni2, strings.Replace(big2, "a b\n", "a b\t-0.3\n", 1)), "highest order", 12},
		{"unknown word", arpa("ngram 1=4\nngram 2=2", uni2, strings.Replace(big2, "a b", "a z", 1)), `word "z" of a 2-gram`, 12},
		{"duplicate unigram", arpa("ngram 1=5", uni1+"-2\ta\n"), `duplicate unigram "a"`, 8},
		{"duplicate bigram", arpa("ngram 1=4\nngram 2=3", uni2, big2+"-0.7\t<s> a\n"), `duplicate 2-gram "<s> a" (first at line 11)`, 13},
		{"no end", "\\data\\\nngram 1=4\n\n" + uni1, "no end (no \\end\\)", 8},
		{"junk instead of end", "\\data\\\nngram 1=4\n" + uni1 + "\\2-grams:\n", "want \\end\\", 8},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.text), nil)
			var se *SyntaxError
			if err == nil || !errors.As(err, &se) || !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v, want a *SyntaxError", err)
			}
			if !strings.Contains(err.Error(), tc.want) || se.Line != tc.line {
				t.Errorf("error %q (line %d), want one containing %q at line %d", err, se.Line, tc.want, tc.line)
			}
		})
	}
}

// TestReadLenient covers what Read accepts beyond the strict format.
func TestReadLenient(t *testing.T) {
	text := "preamble\n\\data\\\nngram 1=3\nngram 2=1\n\n\\1-grams:\n" +
		"-1 a   -0.25\n" + // spaces, not tabs
		"-inf b\n" + // probability 0, as some tools write it
		"-0.5\t</s>\t0\n\n" +
		"\\2-grams:\n-0.1\ta b\t0\n\\end\\\ntrailing text\n"
	m := loadText(t, text, nil)
	if got := strings.Join(m.Words(), " "); got != "</s> <s> <unk> a b" {
		t.Errorf("Words = %q: <s> and <unk> should have been added", got)
	}
	if p, _ := m.Log10Prob(nil); math.Abs(p-(-0.5)) > 1e-6 {
		t.Errorf("p(</s> | <s>) = %g, want the unigram -0.5 (a model without <s> n-grams)", p)
	}
	unk, _ := m.ID(UnknownWord)
	if lp, _ := m.Score(m.Null(), unk); math.Abs(float64(lp)-(-100*math.Ln10)) > 1e-3 {
		t.Errorf("ln p(<unk>) = %g, want -100·ln 10 for a model without <unk>", lp)
	}
	bos, _ := m.ID(SentenceStart)
	if lp, _ := m.Score(m.Null(), bos); math.Abs(float64(lp)-(-99*math.Ln10)) > 1e-3 {
		t.Errorf("ln p(<s>) = %g, want -99·ln 10", lp)
	}
	if m.NGrams(2) != 1 {
		t.Errorf("%d bigrams", m.NGrams(2))
	}
}

func TestMapWord(t *testing.T) {
	upper := "\\data\\\nngram 1=4\nngram 2=1\n\\1-grams:\n-1\t<s>\n-1\tHELLO\t-0.1\n-1\tWorld\n-1\t</s>\n\\2-grams:\n-0.2\tHELLO World\n\\end\\\n"
	m := loadText(t, upper, &LoadOptions{MapWord: strings.ToLower})
	if _, ok := m.ID("hello"); !ok {
		t.Fatalf("no word hello in %q", m.Words())
	}
	h, _ := m.ID("hello")
	w, _ := m.ID("world")
	_, s := m.Score(m.Null(), h)
	if lp, _ := m.Score(s, w); math.Abs(float64(lp)-(-0.2*math.Ln10)) > 1e-5 {
		t.Errorf("p(world | hello) = %g: the bigram was not mapped", lp)
	}
	clash := strings.Replace(upper, "World", "Hello", 2)
	_, err := Read(strings.NewReader(clash), &LoadOptions{MapWord: strings.ToLower})
	if err == nil || !strings.Contains(err.Error(), `words "HELLO" (line 6) and "Hello" both map to "hello"`) {
		t.Errorf("error %v, want one naming both words", err)
	}
}

func TestLoadGzipAndSave(t *testing.T) {
	dir := t.TempDir()
	m := loadText(t, readFile(t, "testdata/turtle.arpa"), nil)
	for _, name := range []string{"lm.arpa", "lm.arpa.gz", "gzip-without-suffix"} {
		path := filepath.Join(dir, name)
		if name == "gzip-without-suffix" {
			var buf bytes.Buffer
			zw := gzip.NewWriter(&buf)
			m.WriteARPA(zw)
			zw.Close()
			os.WriteFile(path, buf.Bytes(), 0o666)
		} else if err := m.Save(path); err != nil {
			t.Fatal(err)
		}
		r, err := Load(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(r.prob) != len(m.prob) {
			t.Errorf("%s: %d nodes, want %d", name, len(r.prob), len(m.prob))
		}
	}
	b, _ := os.ReadFile(filepath.Join(dir, "lm.arpa.gz"))
	if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
		t.Error("Save did not compress a .gz name")
	}
	// A truncated gzip file is an error naming the file and the line.
	os.WriteFile(filepath.Join(dir, "cut.gz"), b[:len(b)/2], 0o666)
	_, err := Load(filepath.Join(dir, "cut.gz"), nil)
	if err == nil || !strings.Contains(err.Error(), "cut.gz:line") || !strings.Contains(err.Error(), "unexpected EOF") {
		t.Errorf("truncated gzip: error %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.arpa"), nil); err == nil || !strings.Contains(err.Error(), "missing.arpa") {
		t.Errorf("missing file: error %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
	if err := m.Save(filepath.Join(dir, "no-such-dir", "lm.arpa")); err == nil {
		t.Error("Save into a missing directory succeeded")
	}
}
