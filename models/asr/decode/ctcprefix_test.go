package decode

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models/asr"
)

// fullExtend is ctcPrefix.extend as Watanabe et al.'s Algorithm 2 writes
// it, over every frame: the reference extend must equal bit for bit.
func fullExtend(c *ctcPrefix, g *ctcState, tok int) *ctcState {
	T, V := c.T, c.V
	if tok == asr.EOS {
		return &ctcState{score: logAdd(g.rn[T-1], g.rb[T-1]), last: asr.EOS}
	}
	h := &ctcState{rn: make([]float64, T), rb: make([]float64, T), last: tok}
	h.rn[0], h.rb[0] = negInf, negInf
	if g.last == -1 {
		h.rn[0] = float64(c.logp[tok])
	}
	psi := h.rn[0]
	for t := 1; t < T; t++ {
		phi := g.rb[t-1]
		if tok != g.last {
			phi = logAdd(phi, g.rn[t-1])
		}
		y := float64(c.logp[t*V+tok])
		h.rn[t] = logAdd(h.rn[t-1], phi) + y
		h.rb[t] = logAdd(h.rb[t-1], h.rn[t-1]) + float64(c.logp[t*V+asr.EOS])
		psi = logAdd(psi, phi+y)
	}
	h.score = psi
	return h
}

// TestCTCPrefixSkipsNothing extends random prefixes (repeated tokens,
// prefixes as long as the frames and longer, several extensions of one
// prefix sharing its φ) with extend and with the full recursion, and
// scores them with score: every r^n, r^b and ψ is the same float64.
func TestCTCPrefixSkipsNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, tc := range []struct{ T, V, steps int }{
		{1, 4, 3}, {2, 3, 4}, {5, 4, 8}, {12, 6, 14}, {40, 9, 30},
	} {
		logp := make([]float32, tc.T*tc.V)
		for t := range tc.T {
			row, sum := logp[t*tc.V:(t+1)*tc.V], 0.0
			for v := range row {
				row[v] = float32(rng.ExpFloat64())
				sum += float64(row[v])
			}
			for v := range row {
				row[v] = float32(math.Log(float64(row[v]) / sum))
			}
		}
		c := &ctcPrefix{T: tc.T, V: tc.V, logp: logp}
		fast, full := c.initial(), c.initial()
		for step := range tc.steps {
			// Score every token from this prefix, then follow one (a
			// repeat of the last every third step).
			var next int
			for tok := range tc.V {
				got, want := c.extend(fast, tok), fullExtend(c, full, tok)
				if math.Float64bits(got.score) != math.Float64bits(want.score) {
					t.Fatalf("T %d step %d token %d: score %v, want %v", tc.T, step, tok, got.score, want.score)
				}
				if psi := c.score(fast, tok); math.Float64bits(psi) != math.Float64bits(want.score) {
					t.Fatalf("T %d step %d token %d: score alone %v, want %v", tc.T, step, tok, psi, want.score)
				}
				for i := range got.rn {
					if math.Float64bits(got.rn[i]) != math.Float64bits(want.rn[i]) || math.Float64bits(got.rb[i]) != math.Float64bits(want.rb[i]) {
						t.Fatalf("T %d step %d token %d frame %d: r^n %v r^b %v, want %v %v", tc.T, step, tok, i, got.rn[i], got.rb[i], want.rn[i], want.rb[i])
					}
				}
			}
			next = 1 + rng.IntN(tc.V-1)
			if step%3 == 2 && fast.last > 0 {
				next = fast.last
			}
			fast, full = c.extend(fast, next), fullExtend(c, full, next)
		}
	}
}

// ctcSequence scores one sequence alone, extending it token by token:
// the reference of ctcSequences.
func ctcSequence(p *ctcPrefix, tokens []int) float64 {
	s := p.initial()
	for _, tok := range tokens {
		s = p.extend(s, tok)
		if math.IsInf(s.score, -1) {
			return negInf
		}
	}
	return p.extend(s, asr.EOS).score
}

// TestCTCSequences scores sequences that share prefixes (and repeat, and
// include the empty one and ones too long for the frames) together and
// one by one: the same float64s.
func TestCTCSequences(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	const T, V = 9, 5
	logp := make([]float32, T*V)
	for t := range T {
		row, sum := logp[t*V:(t+1)*V], 0.0
		for v := range row {
			row[v] = float32(rng.ExpFloat64())
			sum += float64(row[v])
		}
		for v := range row {
			row[v] = float32(math.Log(float64(row[v]) / sum))
		}
	}
	c := &ctcPrefix{T: T, V: V, logp: logp}
	seqs := [][]int{nil}
	for range 40 {
		base := seqs[rng.IntN(len(seqs))]
		s := append([]int(nil), base[:rng.IntN(len(base)+1)]...)
		for range rng.IntN(6) {
			s = append(s, 1+rng.IntN(V-1))
		}
		seqs = append(seqs, s)
	}
	seqs = append(seqs, seqs[3], []int{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3}) // a repeat; longer than the frames
	got := ctcSequences(c, seqs)
	for i, s := range seqs {
		if want := ctcSequence(c, s); math.Float64bits(got[i]) != math.Float64bits(want) {
			t.Errorf("%v: %v together, %v alone", s, got[i], want)
		}
	}
}
