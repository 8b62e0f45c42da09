package speechdata

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

// FuzzParseTSV feeds arbitrary manifests to the TSV reader: it must
// return utterances or an error, never panic; every utterance it returns
// has an id and a path; and what WriteTSV accepts of them reads back the
// same.
func FuzzParseTSV(f *testing.F) {
	for _, s := range []string{
		"a.wav\thello\n",
		"path\ttext\tspeaker\tgender\ta.wav\thi\t1\tm\n",
		"path\tspeaker\tid\ttext\r\na.wav\ts\tu\thi\r\n",
		"\uFEFFpath\ttext\n\n../x/a.wav\t\n/abs.wav\tx\n",
		"path\ttext\tid\na\tb\t\nc\td\ta\n",
		"a\tb\nb\tc\na\td\n",
		"path\n",
		"\t\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, manifest string) {
		const file = "/m/manifest.tsv"
		utts, err := parseTSV(file, strings.NewReader(manifest))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "speechdata: "+file) {
				t.Fatalf("error %q does not name the manifest", err)
			}
			return
		}
		for _, u := range utts {
			if u.ID == "" || u.Path == "" {
				t.Fatalf("utterance %+v without id or path", u)
			}
		}
		var buf bytes.Buffer
		if err := WriteTSV(&buf, utts); err != nil {
			return // a carriage return inside a field
		}
		again, err := parseTSV(file, &buf)
		if err != nil {
			t.Fatalf("reading back %q: %v", buf.String(), err)
		}
		if len(utts) == 0 {
			utts = nil
		}
		if !slices.Equal(again, utts) {
			t.Fatalf("round trip of %q\n got  %+v\nwant %+v", manifest, again, utts)
		}
	})
}
