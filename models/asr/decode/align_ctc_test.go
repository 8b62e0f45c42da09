package decode_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
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

// bruteForceSplit enumerates the paths of T frames that spell tokens
// and returns, for each cut, the token counts before it on the best paths
// (several when scores tie); ok is false when no path spells the tokens.
func bruteForceSplit(logp []float32, T, V int, tokens, cuts []int) (splits []map[int]bool, ok bool) {
	best := math.Inf(-1)
	path := make([]int, T)
	var walk func(t int, score float64)
	walk = func(t int, score float64) {
		if t == T {
			if score < best-1e-6 || !slices.Equal(collapse(path), tokens) {
				return
			}
			if score > best+1e-6 || !ok {
				splits = make([]map[int]bool, len(cuts))
				for i := range splits {
					splits[i] = map[int]bool{}
				}
			}
			best, ok = max(best, score), true
			for i, b := range cuts {
				splits[i][len(collapse(path[:b]))] = true
			}
			return
		}
		for v := range V {
			path[t] = v
			walk(t+1, score+float64(logp[t*V+v]))
		}
	}
	walk(0, 0)
	return splits, ok
}

// onBestPaths reports whether each cut's count is that of a best path.
func onBestPaths(got []int, splits []map[int]bool) bool {
	for i, n := range got {
		if !splits[i][n] {
			return false
		}
	}
	return len(got) == len(splits)
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
			splits, ok := bruteForceSplit(logp, tc.T, V, tc.tokens, tc.cuts)
			if !ok {
				t.Fatalf("%s: no path spells %v in %d frames", tc.name, tc.tokens, tc.T)
			}
			got, err := decode.CTCSplit(logp, tc.T, V, tc.tokens, tc.cuts)
			if err != nil {
				t.Fatalf("%s seed %d: %v", tc.name, seed, err)
			}
			if !onBestPaths(got, splits) {
				t.Errorf("%s seed %d: tokens before the cuts %v, on the best paths %v", tc.name, seed, got, splits)
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
		{"more tokens than frames", []int{1, 2, 1, 2, 1}, []int{2}, decode.ErrTooShort},
		{"repeats without room for blanks", []int{1, 1, 1}, []int{2}, decode.ErrTooShort},
		{"EOS in the tokens", []int{1, asr.EOS}, []int{2}, asr.ErrTokens},
		{"cut at the start", []int{1}, []int{0}, nil},
		{"cuts out of order", []int{1}, []int{3, 2}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decode.CTCSplit(logp, 4, 3, tc.tokens, tc.cuts)
			if err == nil || (tc.err != nil && !errors.Is(err, tc.err)) {
				t.Errorf("error %v, want %v", err, tc.err)
			}
		})
	}
}

// FuzzCTCSplit feeds CTCSplit small recordings, transcripts and cuts made
// from the fuzzer's bytes (invalid ones included; coarse log-probabilities,
// so that best paths tie): it must never panic, must refuse what it
// cannot align, and must place every cut as a best path does.
func FuzzCTCSplit(f *testing.F) {
	f.Add([]byte{5, 1, 3, 1, 2, 1, 2, 3, 9, 200, 17, 44, 90, 3, 250, 128, 7, 7, 7, 60, 61, 62})
	f.Add([]byte{3, 0, 2, 1, 1, 1})
	f.Add([]byte{0, 1, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 4 {
			return
		}
		T, V, n, nc := 1+int(data[0])%5, 2+int(data[1])%2, int(data[2])%5, int(data[3])%3
		data = data[4:]
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := int(data[0])
			data = data[1:]
			return b
		}
		tokens := make([]int, n)
		for i := range tokens {
			tokens[i] = next() % (V + 1) // EOS and V are invalid
		}
		cuts := make([]int, nc)
		for i := range cuts {
			cuts[i] = next() % (T + 1) // 0 and T are invalid, and the order may be wrong
		}
		logp := make([]float32, T*V)
		for t := range T {
			row := logp[t*V : (t+1)*V]
			s := 0.0
			for v := range row {
				row[v] = float32(next()%64) / 8
				s += math.Exp(float64(row[v]))
			}
			for v := range row {
				row[v] -= float32(math.Log(s))
			}
		}
		got, err := decode.CTCSplit(logp, T, V, tokens, cuts)
		valid := !slices.ContainsFunc(tokens, func(k int) bool { return k == asr.EOS || k == V })
		for i, b := range cuts {
			valid = valid && b >= 1 && b < T && (i == 0 || b > cuts[i-1])
		}
		if !valid {
			if err == nil {
				t.Fatalf("tokens %v, cuts %v in %d frames accepted", tokens, cuts, T)
			}
			return
		}
		splits, ok := bruteForceSplit(logp, T, V, tokens, cuts)
		switch {
		case !ok:
			if !errors.Is(err, decode.ErrTooShort) {
				t.Fatalf("tokens %v in %d frames: error %v, want ErrTooShort", tokens, T, err)
			}
		case err != nil:
			t.Fatalf("tokens %v, cuts %v in %d frames: %v", tokens, cuts, T, err)
		case !onBestPaths(got, splits):
			t.Fatalf("tokens %v, cuts %v in %d frames: split %v, on the best paths %v", tokens, cuts, T, got, splits)
		}
	})
}

func BenchmarkCTCSplit(b *testing.B) {
	for _, minutes := range []int{1, 10} {
		b.Run(fmt.Sprintf("%dmin", minutes), func(b *testing.B) { benchmarkCTCSplit(b, minutes) })
	}
}

// benchmarkCTCSplit splits the transcript of minutes of speech at 60 ms
// frames (1000 a minute) and 15 characters a second among 8 s chunks.
func benchmarkCTCSplit(b *testing.B, minutes int) {
	const V = 29
	T := 1000 * minutes
	rng := rand.New(rand.NewPCG(1, 2))
	logp := randomLogProbs(rng, T, V)
	tokens := make([]int, 900*minutes)
	for i := range tokens {
		tokens[i] = 1 + rng.IntN(V-1)
	}
	var cuts []int
	for c := 133; c < T; c += 133 {
		cuts = append(cuts, c)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode.CTCSplit(logp, T, V, tokens, cuts); err != nil {
			b.Fatal(err)
		}
	}
}
