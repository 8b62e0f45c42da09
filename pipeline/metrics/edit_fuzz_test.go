package metrics

import "testing"

// FuzzAlign checks Align against the textbook edit distance and the
// alignment invariants (Ref = C+S+D, Hyp = C+S+I, ops consume both
// sequences in order and tally to the counts), on the runes of the inputs
// and on their bytes folded onto a 5-letter alphabet, where ties between
// alignments are everywhere. The paths that skip the ops must agree.
func FuzzAlign(f *testing.F) {
	f.Add("kitten", "sitting")
	f.Add("the cat sat on the mat", "the cap sat down on the")
	f.Add("", "abc")
	f.Add("abc", "")
	f.Add("aaaa", "aa")
	f.Add("abab", "baba")
	f.Add("naïve café", "naive cafe\u0301")
	f.Fuzz(func(t *testing.T, ref, hyp string) {
		const maxLen = 200 // the reference DP is O(n·m)
		if len(ref) > maxLen || len(hyp) > maxLen {
			t.Skip()
		}
		r, h := []rune(ref), []rune(hyp)
		c, ops := Align(r, h)
		checkAlignment(t, r, h, c, ops)

		rb, hb := fold(ref), fold(hyp)
		c, ops = Align(rb, hb)
		checkAlignment(t, rb, hb, c, ops)
		if counts, none := alignWithin(rb, hb, 0); counts != c || none != nil {
			t.Fatalf("counts-only path: %+v, %d ops; want %+v, none", counts, len(none), c)
		}
		if counts := errorCounts(rb, hb); counts != c {
			t.Fatalf("errorCounts = %+v, want %+v", counts, c)
		}
	})
}

func fold(s string) []byte {
	b := []byte(s)
	for i := range b {
		b[i] %= 5
	}
	return b
}
