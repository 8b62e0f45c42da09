package ngram

import (
	"bytes"
	"os"
	"testing"
)

// FuzzRead feeds Read arbitrary bytes: it must return a model or an
// error, never panic, and a model it returns must answer queries and
// survive WriteARPA → Read. Seeds: the test models here (tidigits also
// as a Sphinx binary model) and the files of testdata/fuzz/FuzzRead.
func FuzzRead(f *testing.F) {
	for _, name := range []string{"tiny", "tidigits"} {
		b, err := os.ReadFile("testdata/" + name + ".arpa")
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(gunzip(f, "testdata/tidigits.lm.bin.gz"))
	f.Add([]byte(arpa("ngram 1=4\nngram 2=2", uni2, big2)))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Read(bytes.NewReader(data), nil)
		if err != nil {
			return
		}
		m.Log10Prob([]string{"a", "b", "zzz"})
		V := WordID(len(m.Words()))
		s := m.Begin()
		for w := range V {
			m.LookAhead(s, 0, w)
			_, s = m.Score(s, w)
			m.End(s)
		}
		var buf bytes.Buffer
		if err := m.WriteARPA(&buf); err != nil {
			t.Fatal(err)
		}
		r, err := Read(&buf, nil)
		if err != nil {
			t.Fatalf("WriteARPA output does not read back: %v\n%s", err, buf.Bytes())
		}
		if len(r.prob) != len(m.prob) {
			t.Fatalf("%d nodes read back, want %d", len(r.prob), len(m.prob))
		}
	})
}
