package asr_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models/asr"
)

// randomLogProbs returns T rows of V random log-probabilities.
func randomLogProbs(rng *rand.Rand, T, V int) []float32 {
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
	return logp
}

// collapse merges repeats and removes blanks (EOS).
func collapse(path []int) []int {
	var out []int
	prev := asr.EOS
	for _, p := range path {
		if p != asr.EOS && p != prev {
			out = append(out, p)
		}
		prev = p
	}
	return out
}

// bruteForceSplit finds the best path of T frames that spells tokens and
// counts the tokens it has started before each cut; ok is false when no
// path spells them.
func bruteForceSplit(logp []float32, T, V int, tokens, cuts []int) (split []int, ok bool) {
	best := math.Inf(-1)
	path := make([]int, T)
	var walk func(t int, score float64)
	walk = func(t int, score float64) {
		if t == T {
			if score > best && slices.Equal(collapse(path), tokens) {
				best, ok = score, true
				split = split[:0]
				for _, b := range cuts {
					split = append(split, len(collapse(path[:b])))
				}
			}
			return
		}
		for v := range V {
			path[t] = v
			walk(t+1, score+float64(logp[t*V+v]))
		}
	}
	walk(0, 0)
	return split, ok
}

func TestCTCSplitMatchesBruteForce(t *testing.T) {
	const V = 4 // blank and three tokens
	for _, tc := range []struct {
		name   string
		T      int
		tokens []int
		cuts   []int
	}{
		{"one cut", 6, []int{1, 2, 3}, []int{3}},
		{"repeats need blanks", 7, []int{2, 2, 1}, []int{2, 5}},
		{"every frame a cut", 5, []int{3, 1}, []int{1, 2, 3, 4}},
		{"tight fit", 5, []int{1, 1, 2}, []int{2}},
		{"no tokens", 4, nil, []int{2}},
	} {
		for seed := range uint64(5) {
			logp := randomLogProbs(rand.New(rand.NewPCG(seed, 3)), tc.T, V)
			want, ok := bruteForceSplit(logp, tc.T, V, tc.tokens, tc.cuts)
			if !ok {
				t.Fatalf("%s: no path spells %v in %d frames", tc.name, tc.tokens, tc.T)
			}
			got, err := asr.CTCSplit(logp, tc.T, V, tc.tokens, tc.cuts)
			if err != nil {
				t.Fatalf("%s seed %d: %v", tc.name, seed, err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s seed %d: tokens before the cuts %v, best path %v", tc.name, seed, got, want)
			}
		}
	}
}

func TestCTCSplitErrors(t *testing.T) {
	logp := randomLogProbs(rand.New(rand.NewPCG(1, 1)), 4, 3)
	for _, tc := range []struct {
		name   string
		tokens []int
		cuts   []int
		err    error
	}{
		{"more tokens than frames", []int{1, 2, 1, 2, 1}, []int{2}, asr.ErrTooShort},
		{"repeats without room for blanks", []int{1, 1, 1}, []int{2}, asr.ErrTooShort},
		{"EOS in the tokens", []int{1, asr.EOS}, []int{2}, asr.ErrTokens},
		{"cut at the start", []int{1}, []int{0}, nil},
		{"cuts out of order", []int{1}, []int{3, 2}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := asr.CTCSplit(logp, 4, 3, tc.tokens, tc.cuts)
			if err == nil || (tc.err != nil && !errors.Is(err, tc.err)) {
				t.Errorf("error %v, want %v", err, tc.err)
			}
		})
	}
}
