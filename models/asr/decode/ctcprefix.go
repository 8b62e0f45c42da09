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
type ctcState struct {
	rn, rb []float64
	score  float64
	last   int // last token of the prefix, −1 for the empty prefix
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

// extend returns the state of g·tok (its score is ψ(g·tok)); tok = EOS
// returns the score of the complete sequence g and no arrays.
func (c *ctcPrefix) extend(g *ctcState, tok int) *ctcState {
	T, V := c.T, c.V
	if tok == asr.EOS {
		return &ctcState{score: logAdd(g.rn[T-1], g.rb[T-1]), last: asr.EOS}
	}
	h := &ctcState{rn: make([]float64, T), rb: make([]float64, T), last: tok}
	if g.last == -1 {
		h.rn[0] = float64(c.logp[tok])
	} else {
		h.rn[0] = negInf
	}
	h.rb[0] = negInf
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
