package decode

import (
	"math"

	"github.com/attend-go/attend/models/asr"
)

// ctcPrefix scores hypotheses with the CTC prefix probability of Watanabe
// et al. (2017, "Hybrid CTC/Attention Architecture for End-to-End Speech
// Recognition", Algorithm 2): for a prefix g, r_t^n(g) and r_t^b(g) are
// the log-probabilities of the frames 1…t emitting g and ending in a
// non-blank or a blank, and the prefix score of h = g·c is
//
//	ψ(h) = log Σ_t φ_{t−1}(g, c) · y_t(c),
//	φ_{t−1}(g, c) = r_{t−1}^b(g) + [c ≠ last(g)] · r_{t−1}^n(g)
//
// (and, for c = EOS, ψ = log(r_T^n(g) + r_T^b(g)), the full sequence
// probability). Each step of a hypothesis costs O(T) per candidate.
type ctcPrefix struct {
	T, V int
	logp []float32 // (T, V) log-probabilities, blank = EOS
}

// ctcState is one prefix's r^n and r^b over all frames and its score ψ.
// A prefix of n tokens cannot be emitted before frame n−1, so r^n_t =
// −∞ for t < n−1 and r^b_t = −∞ for t < n; extend starts there.
type ctcState struct {
	rn, rb []float64
	score  float64
	last   int // last token of the prefix, −1 for the empty prefix
	n      int // tokens in the prefix

	// either[t] = log(r_t^n + r_t^b), the φ_t of every extension by a
	// token other than last, shared by the candidates that extend this
	// prefix (made by the first of them; nil until then).
	either []float64
}

var negInf = math.Inf(-1)

// logAdd returns log(e^a + e^b) = max + log1p(e^−|a−b|), the second term
// read from a table at steps of 1/256 with linear interpolation (absolute
// error below 5e-7; exact for |a−b| ≥ 32, where it is below 1.3e-14):
// the CTC prefix scores call it O(T) times per candidate, and exp and
// log1p were a quarter of the decoding time.
func logAdd(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	d := (a - b) * logAddSteps
	if !(d < logAddSteps*logAddRange) { // also b = −Inf and NaN
		if b == negInf || d >= 0 {
			return a
		}
		return math.NaN()
	}
	i := int(d)
	f := d - float64(i)
	return a + logAddTable[i] + f*(logAddTable[i+1]-logAddTable[i])
}

const (
	logAddSteps = 256 // table entries per nat
	logAddRange = 32  // nats covered
)

// logAddTable[i] = log1p(exp(−i/logAddSteps)).
var logAddTable = func() []float64 {
	t := make([]float64, logAddSteps*logAddRange+2)
	for i := range t {
		t[i] = math.Log1p(math.Exp(-float64(i) / logAddSteps))
	}
	return t
}()

// initial is the state of the empty prefix: all blanks.
func (c *ctcPrefix) initial() *ctcState {
	s := &ctcState{rn: make([]float64, c.T), rb: make([]float64, c.T), last: -1}
	acc := 0.0
	for t := range c.T {
		acc += float64(c.logp[t*c.V+asr.EOS])
		s.rn[t], s.rb[t] = negInf, acc
	}
	return s
}

// score returns ψ(g·tok) (for tok = EOS, the complete sequence g's
// probability) without the state extend makes: the beam ranks every
// hypothesis's candidates by it and keeps a few, so most candidates need
// only this sum, one logAdd per frame where the state costs three and
// two arrays. It is extend(g, tok).score bit for bit.
func (c *ctcPrefix) score(g *ctcState, tok int) float64 {
	T, V := c.T, c.V
	if tok == asr.EOS {
		return logAdd(g.rn[T-1], g.rb[T-1])
	}
	start := max(1, g.n)
	psi := negInf
	if g.last == -1 {
		psi = float64(c.logp[tok])
	}
	phis := g.rb
	if tok != g.last {
		phis = g.eitherPhi()
	}
	for t := start; t < T; t++ {
		psi = logAdd(psi, phis[t-1]+float64(c.logp[t*V+tok]))
	}
	return psi
}

// extend returns the state of g·tok (its score is ψ(g·tok)); tok = EOS
// returns the score of the complete sequence g and no arrays. The frames
// before the first that can end g·tok (n−1 for n tokens) are −∞ and are
// not visited: every value is the one the full recursion gives, bit for
// bit (logAdd returns its other argument exactly for −∞), at a cost of
// T−n+1 frames instead of T (TestCTCPrefixSkipsNothing).
func (c *ctcPrefix) extend(g *ctcState, tok int) *ctcState {
	T, V := c.T, c.V
	if tok == asr.EOS {
		return &ctcState{score: logAdd(g.rn[T-1], g.rb[T-1]), last: asr.EOS, n: g.n}
	}
	arrays := make([]float64, 2*T)
	h := &ctcState{rn: arrays[:T:T], rb: arrays[T:], last: tok, n: g.n + 1}
	start := max(1, h.n-1) // the first frame the loop computes
	for t := range min(start, T) {
		h.rn[t], h.rb[t] = negInf, negInf
	}
	if g.last == -1 {
		h.rn[0] = float64(c.logp[tok])
	}
	psi := h.rn[0]
	phis := g.rb // φ_{t−1} for tok = last: r^b alone
	if tok != g.last {
		phis = g.eitherPhi()
	}
	blank := asr.EOS
	for t := start; t < T; t++ {
		phi := phis[t-1]
		y := float64(c.logp[t*V+tok])
		h.rn[t] = logAdd(h.rn[t-1], phi) + y
		h.rb[t] = logAdd(h.rb[t-1], h.rn[t-1]) + float64(c.logp[t*V+blank])
		psi = logAdd(psi, phi+y)
	}
	h.score = psi
	return h
}

// eitherPhi returns g.either, made on first use.
func (g *ctcState) eitherPhi() []float64 {
	if g.either == nil {
		g.either = make([]float64, len(g.rn))
		for t := range g.either {
			g.either[t] = logAdd(g.rb[t], g.rn[t])
		}
	}
	return g.either
}
