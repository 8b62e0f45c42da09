package ngram

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"math"
	"os"
	"testing"
)

// TestReadSphinx reads CMU Sphinx's own binary test models (gzipped
// copies of Debian's pocketsphinx-testdata files, see testdata/README.md)
// and compares every n-gram with the ARPA files sphinx_lm_convert made of
// them: same vocabulary, same n-grams, probabilities and back-off weights
// within the ARPA's four decimals.
func TestReadSphinx(t *testing.T) {
	for _, name := range []string{"turtle", "tidigits"} {
		t.Run(name, func(t *testing.T) {
			bin, err := Load("testdata/"+name+".lm.bin.gz", nil)
			if err != nil {
				t.Fatal(err)
			}
			arpa, err := Load("testdata/"+name+".arpa", nil)
			if err != nil {
				t.Fatal(err)
			}
			if bin.Order() != arpa.Order() || len(bin.Words()) != len(arpa.Words()) {
				t.Fatalf("order %d, %d words; ARPA: order %d, %d words", bin.Order(), len(bin.Words()), arpa.Order(), len(arpa.Words()))
			}
			for k := 1; k <= arpa.Order(); k++ {
				if bin.NGrams(k) != arpa.NGrams(k) {
					t.Errorf("%d %d-grams, ARPA %d", bin.NGrams(k), k, arpa.NGrams(k))
				}
			}
			n := 0
			arpa.eachNGram(1, arpa.order, func(x int32, words []int32) {
				s := int32(0)
				for _, w := range words[:len(words)-1] {
					s = bin.findChild(s, w)
				}
				y := bin.findChild(s, words[len(words)-1])
				if y < 0 {
					t.Errorf("%q missing", joinWords(arpa.vocab, words))
					return
				}
				n++
				if d := math.Abs(float64(bin.prob[y] - arpa.prob[x])); d > 1e-4 && arpa.prob[x] > -98 {
					t.Errorf("%q: log10 p %v, ARPA %v", joinWords(arpa.vocab, words), bin.prob[y], arpa.prob[x])
				}
				if d := math.Abs(float64(bin.bow[y] - arpa.bow[x])); d > 1e-4 {
					t.Errorf("%q: back-off %v, ARPA %v", joinWords(arpa.vocab, words), bin.bow[y], arpa.bow[x])
				}
			})
			if n < 10 {
				t.Errorf("compared only %d n-grams", n)
			}
		})
	}
}

// TestReadSphinxTruncated cuts the turtle model short at several places:
// every cut is an ErrFormat error, never a panic.
func TestReadSphinxTruncated(t *testing.T) {
	full := gunzip(t, "testdata/turtle.lm.bin.gz")
	for _, cut := range []int{20, 21, 30, 100, 4 << 10, 3 << 18, len(full) - 300, len(full) - 1} {
		_, err := Read(bytes.NewReader(full[:cut]), nil)
		if !errors.Is(err, ErrFormat) {
			t.Errorf("cut at %d of %d bytes: error %v, want ErrFormat", cut, len(full), err)
		}
	}
}

// TestReadSphinxCorrupt flips the bigram count and a trie pointer: errors, not panics.
func TestReadSphinxCorrupt(t *testing.T) {
	full := gunzip(t, "testdata/turtle.lm.bin.gz")
	for _, tc := range []struct {
		name string
		at   int
		b    byte
	}{
		{"order 0", len(sphinxMagic), 0},
		{"order 99", len(sphinxMagic), 99},
		{"huge unigram count", len(sphinxMagic) + 4, 0xff},
	} {
		bad := bytes.Clone(full)
		bad[tc.at] = tc.b
		if _, err := Read(bytes.NewReader(bad), nil); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

func gunzip(t testing.TB, path string) []byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
