package decode

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/asr"
)

// randomCTC returns T frames of random CTC log-posteriors over V tokens.
func randomCTC(rng *rand.Rand, T, V int, spread float64) *asr.Encoded {
	lp := make([]float32, T*V)
	for t := range T {
		row := lp[t*V : (t+1)*V]
		for v := range row {
			row[v] = float32(spread * rng.NormFloat64())
		}
		models.LogSoftmax(row, row, len(row))
	}
	return &asr.Encoded{T: T, CTCLogProbs: lp}
}

// TestCTCBeamIsExactWhenUnpruned runs the prefix beam search with a beam
// wider than the number of prefixes: every prefix keeps all its paths, so
// each one's probability must equal the CTC sequence probability, and the
// probabilities of all outputs must sum to one.
func TestCTCBeamIsExactWhenUnpruned(t *testing.T) {
	v, err := asr.NewVocab([]string{"<eos>", "a", "b", "c"}) // no space: every output is allowed
	if err != nil {
		t.Fatal(err)
	}
	m := &asr.Model{Vocab: v}
	for _, tc := range []struct {
		name   string
		T      int
		spread float64
	}{{"flat", 5, 0.5}, {"peaky", 6, 1.5}} {
		t.Run(tc.name, func(t *testing.T) {
			e := randomCTC(rand.New(rand.NewPCG(1, 2)), tc.T, v.Size(), tc.spread)
			hyps := ctcBeamHyps(m, e, Options{}, 1<<20)
			p := &ctcPrefix{T: e.T, V: v.Size(), logp: e.CTCLogProbs}
			sum := negInf
			for _, h := range hyps {
				want := ctcSequence(p, h.tokens)
				if math.Abs(h.total()-want) > 1e-5 { // both through the tabled logAdd
					t.Errorf("%v: beam probability %.12f, sequence probability %.12f", h.tokens, h.total(), want)
				}
				sum = logAdd(sum, h.total())
			}
			if math.Abs(sum) > 1e-5 { // float32 posteriors, tabled logAdd
				t.Errorf("outputs sum to exp(%g), want 1", sum)
			}
			for i := 1; i < len(hyps); i++ {
				if hyps[i].total() > hyps[i-1].total() {
					t.Fatalf("hypotheses not ranked: %g after %g", hyps[i].total(), hyps[i-1].total())
				}
			}
		})
	}
}

// TestCTCBeamWordLM makes "cat" and "cot" equally likely to the CTC head
// and checks that the word LM (which knows cat, not cot) decides.
func TestCTCBeamWordLM(t *testing.T) {
	w := tinyWordLM(t, nil, nil)
	v := asr.DefaultVocab()
	m := &asr.Model{Vocab: v}
	V := v.Size()
	frames := [][2]string{{"c", ""}, {"a", "o"}, {"t", ""}}
	lp := make([]float32, len(frames)*V)
	for t, f := range frames {
		row := lp[t*V : (t+1)*V]
		for i := range row {
			row[i] = -20
		}
		for _, c := range f {
			if c != "" {
				row[vocabID(v, rune(c[0]))] = float32(math.Log(0.5))
			}
		}
		if f[1] == "" {
			row[vocabID(v, rune(f[0][0]))] = 0
		}
	}
	e := &asr.Encoded{T: len(frames), CTCLogProbs: lp}
	noLM := ctcBeam(m, e, Options{}, 4)
	withLM := ctcBeam(m, e, Options{WordLM: w, WordLMWeight: 1}, 4)
	got := func(h [][]int) []string {
		var s []string
		for _, x := range h[:2] {
			s = append(s, v.Decode(x))
		}
		return s
	}
	if a := got(noLM); !slices.Contains(a, "cat") || !slices.Contains(a, "cot") {
		t.Fatalf("without LM the two best are %q, want cat and cot", a)
	}
	if b := v.Decode(withLM[0]); b != "cat" {
		t.Errorf("with the word LM the best is %q, want cat", b)
	}
	hot := tinyWordLM(t, nil, map[string]float32{"cot": 8})
	if b := v.Decode(ctcBeam(m, e, Options{WordLM: hot, WordLMWeight: 1}, 4)[0]); b != "cot" {
		t.Errorf("with cot a hotword the best is %q, want cot", b)
	}
}

func TestLogAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 100000 {
		a, b := 40*rng.NormFloat64(), 40*rng.NormFloat64()
		if rng.IntN(10) == 0 {
			b = a + rng.Float64() // close values
		}
		want := math.Max(a, b) + math.Log1p(math.Exp(-math.Abs(a-b)))
		if got := logAdd(a, b); math.Abs(got-want) > 5e-7 {
			t.Fatalf("logAdd(%g, %g) = %.12g, want %.12g", a, b, got, want)
		}
	}
	for _, tc := range []struct{ a, b, want float64 }{
		{negInf, negInf, negInf}, {negInf, -3, -3}, {-3, negInf, -3}, {0, 0, math.Ln2},
	} {
		if got := logAdd(tc.a, tc.b); got != tc.want && math.Abs(got-tc.want) > 5e-7 {
			t.Errorf("logAdd(%g, %g) = %g, want %g", tc.a, tc.b, got, tc.want)
		}
	}
}

// vocabID is v's id of character r, which the test knows is there.
func vocabID(v *asr.Vocab, r rune) int {
	id, _ := v.ID(r)
	return id
}
