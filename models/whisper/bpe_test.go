package whisper

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestBytePairMergeHeapMatchesScan checks that the heap merge used for
// long pieces merges exactly as tiktoken's rescanning loop, on pieces
// drawn from real text and from repetitive runs where equal ranks tie.
func TestBytePairMergeHeapMatchesScan(t *testing.T) {
	for _, d := range []Dims{englishDims, multilingualDims} {
		tok := newTestTokenizer(t, d)
		r := rand.New(rand.NewPCG(3, 4))
		alphabet := []string{"a", "b", "e", "n", "t", "ing", "ation", "0", "00", "é", "中", "😀", "'", "!", "\xff"}
		var pieces []string
		for range 400 {
			var b strings.Builder
			for b.Len() < 1+r.IntN(5*scanMergeLimit) {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			pieces = append(pieces, b.String())
		}
		pieces = append(pieces, "aaaaaaaaaaaaaaaa", "0000000000000000000", "antidisestablishmentarianism", "ababababab")
		for _, p := range pieces {
			scan := bytePairMergeScan(nil, p, tok.vocab.ranks)
			heap := bytePairMergeHeap(nil, p, tok.vocab.ranks)
			if !slices.Equal(scan, heap) {
				t.Fatalf("%q: scan %v, heap %v", p, scan, heap)
			}
		}
	}
}

// TestEncodeLongPiece checks that a 200,000-byte piece encodes (in
// O(n log n)) and round-trips, as tiktoken's test_large_repeated does.
func TestEncodeLongPiece(t *testing.T) {
	tok := newTestTokenizer(t, englishDims)
	for _, s := range []string{strings.Repeat("x", 200_000), strings.Repeat("0", 10_000), " " + strings.Repeat("'s", 5_000) + "\n"} {
		if got := tok.Decode(tok.Encode(s)); got != s {
			t.Errorf("a %d-byte text does not round-trip", len(s))
		}
	}
}
