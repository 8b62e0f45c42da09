package decode

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/attend-go/attend/models/asr"
)

// bruteCTC sums the probabilities of every label path of T frames over P
// labels whose collapse (repeats merged, blanks dropped) is seq: CTC's
// definition (Graves et al. 2006, eq. 2–3), without the recursion.
func bruteCTC(lp []float32, T, P int, seq []int) float64 {
	total := math.Inf(-1)
	path := make([]int, T)
	var walk func(t int, score float64)
	walk = func(t int, score float64) {
		if t == T {
			var out []int
			for i, l := range path {
				if l != asr.PhoneBlank && (i == 0 || path[i-1] != l) {
					out = append(out, l)
				}
			}
			if slices.Equal(out, seq) {
				total = logAdd(total, score)
			}
			return
		}
		for l := range P {
			path[t] = l
			walk(t+1, score+float64(lp[t*P+l]))
		}
	}
	walk(0, 0)
	return total
}

// bruteStates sums over every path through the extended sequence's states
// (blank, s₁, blank, …) allowed by CTC's transitions, a phoneWild state
// emitting each frame's best label: phoneCTCScore's recursion unrolled.
func bruteStates(lp []float32, T, P int, seq []int) float64 {
	S := 2*len(seq) + 1
	label := func(s int) int {
		if s%2 == 0 {
			return asr.PhoneBlank
		}
		return seq[s/2]
	}
	emit := func(t, l int) float64 {
		row := lp[t*P : (t+1)*P]
		if l == phoneWild {
			return float64(slices.Max(row))
		}
		return float64(row[l])
	}
	total := math.Inf(-1)
	var walk func(t, s int, score float64)
	walk = func(t, s int, score float64) {
		score += emit(t, label(s))
		if t == T-1 {
			if s >= S-2 {
				total = logAdd(total, score)
			}
			return
		}
		for _, n := range []int{s, s + 1, s + 2} {
			if n >= S || (n == s+2 && (label(n) == asr.PhoneBlank || label(n) == label(s))) {
				continue
			}
			walk(t+1, n, score)
		}
	}
	walk(0, 0, 0)
	if S > 1 {
		walk(0, 1, 0)
	}
	return total
}

// lattice builds the lattice of one pronunciation per word.
func lattice(seq ...int) *phoneLattice {
	var words [][][]int
	for _, ph := range seq {
		words = append(words, [][]int{{ph}})
	}
	l := &phoneLattice{}
	l.build(words)
	return l
}

func TestPhoneCTCScore(t *testing.T) {
	const P = 4
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range []struct {
		name string
		T    int
		seq  []int
	}{
		{"empty", 4, nil},
		{"one", 4, []int{2}},
		{"repeat needs a blank", 5, []int{1, 1}},
		{"three", 6, []int{3, 1, 2}},
		{"too long", 2, []int{1, 1}},
		{"one frame", 1, []int{3}},
		{"wild alone", 4, []int{phoneWild}},
		{"wild between", 6, []int{1, phoneWild, 2}},
		{"two wilds", 6, []int{phoneWild, 3, phoneWild}},
	} {
		t.Run(c.name, func(t *testing.T) {
			lp := randomCTC(rng, c.T, P, 1.5).CTCLogProbs
			got, _ := phoneCTCScore(lp, c.T, P, lattice(c.seq...), nil)
			want := bruteStates(lp, c.T, P, c.seq)
			if !slices.Contains(c.seq, phoneWild) {
				if def := bruteCTC(lp, c.T, P, c.seq); math.Abs(def-want) > 1e-5 && !math.IsInf(def, -1) {
					t.Fatalf("state paths %v, label paths %v: the brute forces disagree", want, def)
				}
			}
			switch {
			case math.IsInf(want, -1):
				if !math.IsInf(got, -1) {
					t.Errorf("got %v, want −Inf (no alignment fits)", got)
				}
			case math.Abs(got-want) > 1e-5:
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

// TestPhoneCTCScoreAlternatives: a lattice of several pronunciations per
// word scores the sum of the probabilities of every choice (the choices'
// label paths are disjoint: each collapses to its own phone string),
// whatever the pronunciations' lengths and shared phones.
func TestPhoneCTCScoreAlternatives(t *testing.T) {
	const P = 4
	rng := rand.New(rand.NewPCG(13, 14))
	for _, c := range []struct {
		name  string
		T     int
		words [][][]int
	}{
		{"two of one word", 5, [][][]int{{{1, 2}, {3}}}},
		{"shared first phone", 5, [][][]int{{{1, 2}, {1, 3}}}},
		{"choices in two words", 6, [][][]int{{{1}, {2, 1}}, {{1, 3}, {3}}}},
		{"repeat across words", 5, [][][]int{{{2}, {3, 2}}, {{2}}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			lp := randomCTC(rng, c.T, P, 1.5).CTCLogProbs
			l := &phoneLattice{}
			l.build(c.words)
			got, _ := phoneCTCScore(lp, c.T, P, l, nil)
			want := math.Inf(-1)
			var choose func(i int, seq []int)
			choose = func(i int, seq []int) {
				if i == len(c.words) {
					want = logAdd(want, bruteCTC(lp, c.T, P, seq))
					return
				}
				for _, pron := range c.words[i] {
					choose(i+1, append(slices.Clip(seq), pron...))
				}
			}
			choose(0, nil)
			if math.Abs(got-want) > 1e-5 {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}

func TestPhoneWords(t *testing.T) {
	d, err := ParsePhoneDict("test", strings.NewReader("the DH AH\ncat K AE T\n\nthe DH IY\ndon't D OW N T\n"))
	if err != nil {
		t.Fatal(err)
	}
	id := func(ph string) int {
		i, ok := asr.PhoneID(ph)
		if !ok {
			t.Fatalf("phone %s", ph)
		}
		return i
	}
	the := [][]int{{id("DH"), id("AH")}, {id("DH"), id("IY")}}
	for _, c := range []struct {
		text    string
		want    [][][]int
		unknown int
	}{
		{"", nil, 0},
		{"the cat", [][][]int{the, {{id("K"), id("AE"), id("T")}}}, 0},
		{"don't  thecat", [][][]int{{{id("D"), id("OW"), id("N"), id("T")}}, {{phoneWild}}}, 1},
		{"xq the zz", [][][]int{{{phoneWild}}, the, {{phoneWild}}}, 2},
	} {
		got, unknown := phoneWords(d, nil, c.text)
		if !reflect.DeepEqual(got, c.want) || unknown != c.unknown {
			t.Errorf("%q: got %v (%d unknown), want %v (%d)", c.text, got, unknown, c.want, c.unknown)
		}
	}
	// Words the user gave the search (the hotword "layla", the -lexicon
	// word "zed") lack pronunciations here but are not made up: fillers
	// without the penalty; the LM's own "dog" and the made-up "zz" pay.
	known := tinyWordLM(t, []string{"zed"}, map[string]float32{"layla": 1}).Lexicon
	got, unknown := phoneWords(d, known, "layla the dog zed zz")
	if want := [][][]int{{{phoneWild}}, the, {{phoneWild}}, {{phoneWild}}, {{phoneWild}}}; !reflect.DeepEqual(got, want) || unknown != 2 {
		t.Errorf("with a lexicon: got %v (%d unknown), want %v (2)", got, unknown, want)
	}
}

func TestParsePhoneDict(t *testing.T) {
	for _, c := range []struct {
		name, text, err string
		prons           int
	}{
		{"sorted, alternates kept in order, repeats dropped", "zoo Z UW\nant AE N T\nzoo Z OW\nzoo Z UW\n", "", 3},
		{"no phones", "a AH\nbe\n", "test:2: word \"be\" without phones", 0},
		{"stress digits", "a AH0\n", "test:1: \"AH0\" is not one of the 39", 0},
		{"unknown phone", "a XX\n", "test:1: \"XX\" is not one", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, err := ParsePhoneDict("test", strings.NewReader(c.text))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want one containing %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Len() != c.prons {
				t.Errorf("%d pronunciations, want %d", d.Len(), c.prons)
			}
			want := [][]int{{phoneID(t, "Z"), phoneID(t, "UW")}, {phoneID(t, "Z"), phoneID(t, "OW")}}
			if got := d.Pronunciations("zoo"); !reflect.DeepEqual(got, want) {
				t.Errorf("zoo: %v, want %v", got, want)
			}
		})
	}
}

func TestDefaultPhoneDict(t *testing.T) {
	d, err := DefaultPhoneDict()
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 133525 {
		t.Errorf("%d pronunciations, want 133525", d.Len())
	}
	for word, want := range map[string]string{"hello": "HH AH L OW|HH EH L OW", "quick": "K W IH K", "dog": "D AO G", "don't": "D OW N T|D OW N", "the": "DH AH|DH IY"} {
		var got []string
		for _, ids := range d.Pronunciations(word) {
			var phs []string
			for _, i := range ids {
				phs = append(phs, asr.Phones[i-1])
			}
			got = append(got, strings.Join(phs, " "))
		}
		if strings.Join(got, "|") != want {
			t.Errorf("%s: %q, want %q", word, got, want)
		}
	}
	if got := d.Pronunciations("qqzx"); got != nil {
		t.Errorf("qqzx: %v", got)
	}
}
