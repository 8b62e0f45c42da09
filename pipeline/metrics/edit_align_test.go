package metrics

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// levenshtein is the textbook full-table edit distance, independent of
// Align's two-row counts and tie rule.
func levenshtein[T comparable](a, b []T) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			d[i][j] = min(d[i-1][j-1]+c, d[i-1][j]+1, d[i][j-1]+1)
		}
	}
	return d[len(a)][len(b)]
}

// checkAlignment verifies the invariants every alignment must satisfy:
// the ops consume both sequences in order, match ops join equal tokens
// and sub ops unequal ones, the ops tally to the counts, and the counts
// are a minimum edit distance.
func checkAlignment[T comparable](t *testing.T, ref, hyp []T, c EditCounts, ops []Op) {
	t.Helper()
	if c.Ref != len(ref) || c.Hyp != len(hyp) {
		t.Fatalf("lengths Ref %d Hyp %d, want %d %d", c.Ref, c.Hyp, len(ref), len(hyp))
	}
	if c.Sub < 0 || c.Del < 0 || c.Ins < 0 || c.Correct() < 0 {
		t.Fatalf("negative counts %+v", c)
	}
	if got := c.Correct() + c.Sub + c.Ins; got != c.Hyp {
		t.Fatalf("Correct+Sub+Ins = %d, want Hyp %d (%+v)", got, c.Hyp, c)
	}
	if want := levenshtein(ref, hyp); c.Errors() != want {
		t.Fatalf("Errors() = %d, want edit distance %d (%+v)", c.Errors(), want, c)
	}
	var tally EditCounts
	i, j := 0, 0
	for k, op := range ops {
		switch op.Kind {
		case Match, Sub:
			if op.Ref != i || op.Hyp != j {
				t.Fatalf("op %d %v at (%d,%d), want (%d,%d)", k, op.Kind, op.Ref, op.Hyp, i, j)
			}
			if (ref[i] == hyp[j]) != (op.Kind == Match) {
				t.Fatalf("op %d is %v but ref[%d]==hyp[%d] is %v", k, op.Kind, i, j, ref[i] == hyp[j])
			}
			if op.Kind == Sub {
				tally.Sub++
			}
			i++
			j++
		case Del:
			if op.Ref != i || op.Hyp != -1 {
				t.Fatalf("op %d del at (%d,%d), want (%d,-1)", k, op.Ref, op.Hyp, i)
			}
			tally.Del++
			i++
		case Ins:
			if op.Ref != -1 || op.Hyp != j {
				t.Fatalf("op %d ins at (%d,%d), want (-1,%d)", k, op.Ref, op.Hyp, j)
			}
			tally.Ins++
			j++
		default:
			t.Fatalf("op %d has kind %v", k, op.Kind)
		}
	}
	if i != len(ref) || j != len(hyp) {
		t.Fatalf("ops consume %d of %d ref and %d of %d hyp tokens", i, len(ref), j, len(hyp))
	}
	tally.Ref, tally.Hyp = c.Ref, c.Hyp
	if tally != c {
		t.Fatalf("ops tally to %+v, counts are %+v", tally, c)
	}
}

// opString writes ops compactly: "=" match, "s" sub, "d" del, "i" ins.
func opString(ops []Op) string {
	var b strings.Builder
	for _, op := range ops {
		b.WriteByte("=sdi"[op.Kind])
	}
	return b.String()
}

func TestAlignWords(t *testing.T) {
	tests := []struct {
		name     string
		ref, hyp string
		want     EditCounts
		ops      string
	}{
		{"both empty", "", "", EditCounts{}, ""},
		{"empty hypothesis", "a b c", "", EditCounts{Ref: 3, Del: 3}, "ddd"},
		{"empty reference", "", "a b", EditCounts{Ins: 2, Hyp: 2}, "ii"},
		{"identical", "the cat sat", "the cat sat", EditCounts{Ref: 3, Hyp: 3}, "==="},
		{"one substitution", "the cat sat", "the hat sat", EditCounts{Ref: 3, Sub: 1, Hyp: 3}, "=s="},
		{"deletion in the middle", "the cat sat", "the sat", EditCounts{Ref: 3, Del: 1, Hyp: 2}, "=d="},
		{"insertion at the end", "the cat", "the cat sat", EditCounts{Ref: 2, Ins: 1, Hyp: 3}, "==i"},
		{"sclite-style listing", "the cat sat on the mat", "the cap sat down on the",
			EditCounts{Ref: 6, Sub: 1, Del: 1, Ins: 1, Hyp: 6}, "=s=i==d"},
		// Ties: a swap is two substitutions (not a deletion and an
		// insertion), and a shorter wrong hypothesis substitutes at the
		// end and deletes at the start.
		{"swap is two substitutions", "a b", "b a", EditCounts{Ref: 2, Sub: 2, Hyp: 2}, "ss"},
		{"tie prefers late substitution", "a b", "c", EditCounts{Ref: 2, Sub: 1, Del: 1, Hyp: 1}, "ds"},
		{"tie prefers late substitution, insertion", "c", "a b", EditCounts{Ref: 1, Sub: 1, Ins: 1, Hyp: 2}, "is"},
		{"all wrong", "a b c", "x y z", EditCounts{Ref: 3, Sub: 3, Hyp: 3}, "sss"},
		{"repeated words", "a a a b", "a b", EditCounts{Ref: 4, Del: 2, Hyp: 2}, "dd=="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref, hyp := strings.Fields(tt.ref), strings.Fields(tt.hyp)
			c, ops := Align(ref, hyp)
			if c != tt.want {
				t.Errorf("counts = %+v, want %+v", c, tt.want)
			}
			if got := opString(ops); got != tt.ops {
				t.Errorf("ops = %q, want %q", got, tt.ops)
			}
			checkAlignment(t, ref, hyp, c, ops)
		})
	}
}

func TestAlignRunes(t *testing.T) {
	tests := []struct {
		name     string
		ref, hyp string
		want     EditCounts
	}{
		// The classic example: kitten → sitting is 2 substitutions and
		// an insertion.
		{"kitten sitting", "kitten", "sitting", EditCounts{Ref: 6, Sub: 2, Ins: 1, Hyp: 7}},
		{"accent is a substitution", "café", "cafe", EditCounts{Ref: 4, Sub: 1, Hyp: 4}},
		{"CJK", "日本語", "日本", EditCounts{Ref: 3, Del: 1, Hyp: 2}},
		{"emoji counts once", "a😀b", "ab", EditCounts{Ref: 3, Del: 1, Hyp: 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref, hyp := []rune(tt.ref), []rune(tt.hyp)
			c, ops := Align(ref, hyp)
			if c != tt.want {
				t.Errorf("counts = %+v, want %+v", c, tt.want)
			}
			checkAlignment(t, ref, hyp, c, ops)
		})
	}
}

// TestAlignRandom checks the invariants on random sequences over small
// alphabets, where ties are everywhere.
func TestAlignRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		ref := randomTokens(r, r.IntN(12), 1+r.IntN(4))
		hyp := randomTokens(r, r.IntN(12), 1+r.IntN(4))
		c, ops := Align(ref, hyp)
		checkAlignment(t, ref, hyp, c, ops)
		if counts, none := alignWithin(ref, hyp, 0); counts != c || none != nil {
			t.Fatalf("counts-only path: %+v, %d ops; want %+v, none", counts, len(none), c)
		}
	}
}

func randomTokens(r *rand.Rand, n, alphabet int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = r.IntN(alphabet)
	}
	return s
}

// TestAlignLimit checks that inputs past the backtrace limit get the same
// counts and no ops.
func TestAlignLimit(t *testing.T) {
	ref := strings.Fields("one two three four five six seven")
	hyp := strings.Fields("one too three for five seven eight")
	want, ops := Align(ref, hyp)
	cells := (len(ref) + 1) * (len(hyp) + 1)
	for _, limit := range []int{cells, cells - 1, 1, 0} {
		c, got := alignWithin(ref, hyp, limit)
		if c != want {
			t.Errorf("limit %d: counts %+v, want %+v", limit, c, want)
		}
		if wantOps := limit >= cells; (got != nil) != wantOps || (wantOps && !slices.Equal(got, ops)) {
			t.Errorf("limit %d (%d cells): ops %v, want ops %v", limit, cells, got != nil, wantOps)
		}
	}
}

func TestFits(t *testing.T) {
	const maxInt = int(^uint(0) >> 1)
	tests := []struct {
		n, m, limit int
		want        bool
	}{
		{0, 0, 1, true},
		{0, 0, 0, false},
		{9, 9, 100, true},
		{9, 10, 100, false},
		{10_000, 9_998, MaxAlignCells, true},   // 10001·9999 < 1e8
		{10_000, 10_000, MaxAlignCells, false}, // 10001² > 1e8
		{maxInt - 1, maxInt - 1, MaxAlignCells, false},
		{0, maxInt - 1, maxInt, true},
	}
	for _, tt := range tests {
		if got := fits(tt.n, tt.m, tt.limit); got != tt.want {
			t.Errorf("fits(%d, %d, %d) = %v, want %v", tt.n, tt.m, tt.limit, got, tt.want)
		}
	}
}
