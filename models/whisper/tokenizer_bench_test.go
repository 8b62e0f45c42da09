package whisper

import (
	"strings"
	"testing"
)

// benchText is about 1 KB of English with punctuation, digits and
// accents, the size of a prompt or a decoded window.
var benchText = strings.Repeat("And so, my fellow Americans: ask not what your country can do for you — ask what you can do for your country. It's 1961; café naïve. ", 8)

func BenchmarkTokenizerEncode(b *testing.B) { benchmarkTokenizerEncode(b, englishDims) }

func BenchmarkTokenizerEncodeMultilingual(b *testing.B) {
	benchmarkTokenizerEncode(b, multilingualDims)
}

func benchmarkTokenizerEncode(b *testing.B, d Dims) {
	tok := newTestTokenizer(b, d)
	b.SetBytes(int64(len(benchText)))
	b.ReportAllocs()
	for b.Loop() {
		tok.Encode(benchText)
	}
}

func BenchmarkDecode(b *testing.B) {
	tok := newTestTokenizer(b, englishDims)
	ids := tok.Encode(benchText)
	b.SetBytes(int64(len(benchText)))
	b.ReportAllocs()
	for b.Loop() {
		tok.Decode(ids)
	}
}

func BenchmarkNewTokenizer(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		v, err := loadEmbedded("multilingual")
		if err != nil || len(v.tokens) != multilingualBaseVocab {
			b.Fatal(err)
		}
	}
}

func FuzzEncodeRoundTrip(f *testing.F) {
	for _, s := range roundTripTexts[:12] {
		f.Add(s)
	}
	tok := newTestTokenizer(f, multilingualDims)
	f.Fuzz(func(t *testing.T, s string) {
		ids := tok.Encode(s)
		if got := string(tok.appendBytes(nil, ids, true)); got != s {
			t.Fatalf("%q encodes to %v, whose bytes are %q", s, ids, got)
		}
	})
}
