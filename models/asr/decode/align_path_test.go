package decode_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models/asr"
	"github.com/attend-go/attend/models/asr/decode"
)

// randomRows returns n rows of T random attention weights summing to 1,
// some of them exactly 0.
func randomRows(rng *rand.Rand, n, T int) [][]float32 {
	rows := make([][]float32, n)
	for i := range rows {
		rows[i] = make([]float32, T)
		s := float32(0)
		for t := range T {
			if rng.IntN(4) > 0 {
				rows[i][t] = rng.Float32()
				s += rows[i][t]
			}
		}
		for t := range T {
			rows[i][t] /= max(s, 1e-6)
		}
	}
	return rows
}

// pathScore is the objective MonotonicFrames maximizes.
func pathScore(e *asr.Encoded, V int, tokens []int, rows [][]float32, path []int) float64 {
	s := 0.0
	for i, t := range path {
		s += math.Log(float64(rows[i][t]) + 1e-8)
		if e.CTCLogProbs != nil {
			s += float64(e.CTCLogProbs[t*V+tokens[i]])
		}
	}
	return s
}

// bestPathBruteForce enumerates every non-decreasing path.
func bestPathBruteForce(e *asr.Encoded, V int, tokens []int, rows [][]float32) float64 {
	best := math.Inf(-1)
	path := make([]int, len(tokens))
	var walk func(i, from int)
	walk = func(i, from int) {
		if i == len(path) {
			best = math.Max(best, pathScore(e, V, tokens, rows, path))
			return
		}
		for t := from; t < e.T; t++ {
			path[i] = t
			walk(i+1, t)
		}
	}
	walk(0, 0)
	return best
}

func TestMonotonicFramesIsTheBestPath(t *testing.T) {
	m, err := asr.New(tinyConfig(0.3), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	V := m.Vocab.Size()
	for _, tc := range []struct {
		name string
		ctc  bool
		n, T int
		seed uint64
	}{
		{"attention", false, 4, 6, 1},
		{"attention and CTC", true, 4, 6, 2},
		{"more tokens than frames", true, 5, 3, 3},
		{"one frame", true, 3, 1, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(tc.seed, 8))
			e := &asr.Encoded{T: tc.T, D: 1, Memory: make([]float32, tc.T), CTCLogProbs: randomLogProbs(rng, tc.T, V)}
			if !tc.ctc {
				e.CTCLogProbs = nil
			}
			tokens := make([]int, tc.n)
			for i := range tokens {
				tokens[i] = 1 + rng.IntN(V-1)
			}
			rows := randomRows(rng, tc.n, tc.T)
			path, err := decode.MonotonicFrames(m, e, tokens, rows)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.IsSorted(path) || len(path) != tc.n || path[0] < 0 || path[tc.n-1] >= tc.T {
				t.Fatalf("path %v is not a non-decreasing path of %d frames", path, tc.T)
			}
			got, want := pathScore(e, V, tokens, rows, path), bestPathBruteForce(e, V, tokens, rows)
			if math.Abs(got-want) > 1e-9 {
				t.Errorf("path %v scores %v, the best path %v", path, got, want)
			}
		})
	}
}

// TestMonotonicFramesIgnoresAStrayPeak: a row whose peak lies far behind
// its neighbours' is placed between them, and where attention is flat the
// CTC posteriors decide.
func TestMonotonicFramesIgnoresAStrayPeak(t *testing.T) {
	m, err := asr.New(tinyConfig(0.3), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	V := m.Vocab.Size()
	const T = 10
	row := func(weights map[int]float32) []float32 {
		r := make([]float32, T)
		rest := float32(1)
		for t, w := range weights {
			r[t] = w
			rest -= w
		}
		for t := range r {
			if _, set := weights[t]; !set {
				r[t] = rest / float32(T-len(weights))
			}
		}
		return r
	}
	tokens := []int{1, 2, 3}
	rows := [][]float32{row(map[int]float32{2: 0.9}), row(map[int]float32{9: 0.5, 4: 0.4}), row(map[int]float32{6: 0.9})}
	e := &asr.Encoded{T: T, D: 1, Memory: make([]float32, T)}
	path, err := decode.MonotonicFrames(m, e, tokens, rows)
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 4, 6}; !slices.Equal(path, want) {
		t.Errorf("attention only: path %v, want %v", path, want)
	}
	// Flat attention on the middle token; CTC emits it at frame 5.
	rows[1] = row(nil)
	e.CTCLogProbs = make([]float32, T*V)
	for t := range T {
		for v := range V {
			e.CTCLogProbs[t*V+v] = float32(math.Log(1.0 / float64(V)))
		}
	}
	e.CTCLogProbs[5*V+2] = 0
	if path, err = decode.MonotonicFrames(m, e, tokens, rows); err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 5, 6}; !slices.Equal(path, want) {
		t.Errorf("with CTC: path %v, want %v", path, want)
	}
}

func TestMonotonicFramesErrors(t *testing.T) {
	m, err := asr.New(tinyConfig(0), nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	e := &asr.Encoded{T: 3, D: 1, Memory: make([]float32, 3)}
	for _, tc := range []struct {
		name   string
		tokens []int
		rows   [][]float32
	}{
		{"rows for other tokens", []int{1, 2}, [][]float32{{1, 0, 0}}},
		{"a short row", []int{1}, [][]float32{{1, 0}}},
		{"a token past the vocabulary", []int{m.Vocab.Size()}, [][]float32{{1, 0, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := decode.MonotonicFrames(m, e, tc.tokens, tc.rows); err == nil {
				t.Error("no error")
			}
		})
	}
	if path, err := decode.MonotonicFrames(m, e, nil, nil); err != nil || len(path) != 0 {
		t.Errorf("no tokens: path %v, error %v", path, err)
	}
}

// tinyConfig is a model small enough to train in seconds.
func tinyConfig(ctc float64) asr.Config {
	return asr.Config{
		MelBins: 8, Stack: 2, ListenerHidden: 16, ListenerLayers: 2, Embed: 8,
		SpellerHidden: 32, AttentionDim: 16, LocationFilters: 4, LocationWidth: 5,
		CTCWeight: ctc, LabelSmoothing: 0, Dropout: 0,
	}
}
