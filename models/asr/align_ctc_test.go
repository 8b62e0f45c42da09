package asr_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models/asr"
)

// randomCTC returns an encoded utterance of T frames whose CTC head
// emits random log-probabilities (V = 29).
func randomCTC(rng *rand.Rand, T, V int) *asr.Encoded {
	logp := make([]float32, T*V)
	for t := range T {
		s := 0.0
		row := logp[t*V : (t+1)*V]
		for v := range row {
			row[v] = float32(2 * rng.NormFloat64())
			s += math.Exp(float64(row[v]))
		}
		for v := range row {
			row[v] -= float32(math.Log(s))
		}
	}
	return &asr.Encoded{T: T, D: 1, Memory: make([]float32, T), CTCLogProbs: logp}
}

// bruteForcePrefixes sums exp(score) over every path of T frames whose
// collapse (repeats merged, blanks removed) is a prefix of tokens.
func bruteForcePrefixes(e *asr.Encoded, V int, tokens []int) []float64 {
	sums := make([]float64, len(tokens)+1)
	path := make([]int, e.T)
	var walk func(t int, score float64)
	walk = func(t int, score float64) {
		if t == e.T {
			var out []int
			prev := asr.EOS
			for _, p := range path {
				if p != asr.EOS && p != prev {
					out = append(out, p)
				}
				prev = p
			}
			if len(out) <= len(tokens) && slices.Equal(out, tokens[:len(out)]) {
				sums[len(out)] += math.Exp(score)
			}
			return
		}
		for v := range V {
			path[t] = v
			walk(t+1, score+float64(e.CTCLogProbs[t*V+v]))
		}
	}
	walk(0, 0)
	for i, s := range sums {
		sums[i] = math.Log(s)
	}
	return sums
}

func TestCTCPrefixLogProbsMatchesBruteForce(t *testing.T) {
	m, err := asr.New(tinyConfig(0.3), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	V := m.Vocab.Size()
	for _, tc := range []struct {
		name   string
		T      int
		tokens string
	}{
		{"distinct", 4, "abc"},
		{"repeat needs a blank", 4, "aab"},
		{"longer than the frames", 2, "abc"},
		{"empty", 3, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := randomCTC(rand.New(rand.NewPCG(uint64(tc.T), 9)), tc.T, V)
			tokens, err := m.Vocab.Encode(tc.tokens)
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.CTCPrefixLogProbs(e, tokens)
			if err != nil {
				t.Fatal(err)
			}
			want := bruteForcePrefixes(e, V, tokens)
			for n := range want {
				if math.IsInf(want[n], -1) != math.IsInf(got[n], -1) || (!math.IsInf(want[n], -1) && math.Abs(got[n]-want[n]) > 1e-4) {
					t.Errorf("prefix %q: log p = %v, brute force %v", tc.tokens[:n], got[n], want[n])
				}
			}
		})
	}
}

func TestCTCPrefixLogProbsErrors(t *testing.T) {
	m, err := asr.New(tinyConfig(asr.NoCTC), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	e := randomCTC(rand.New(rand.NewPCG(1, 1)), 3, m.Vocab.Size())
	if _, err := m.CTCPrefixLogProbs(e, []int{asr.EOS}); !errors.Is(err, asr.ErrTokens) {
		t.Errorf("EOS in the tokens: error %v, want ErrTokens", err)
	}
	e.CTCLogProbs = nil
	if _, err := m.CTCPrefixLogProbs(e, []int{1}); !errors.Is(err, asr.ErrNoCTC) {
		t.Errorf("no CTC head: error %v, want ErrNoCTC", err)
	}
}
