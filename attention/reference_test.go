package attention

import (
	"math"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// The reference tests compare the eager steps with plain float64 loops
// written straight from the papers' equations, independently of the
// fused kernels that both faces share.

func param(t *testing.T, ps *models.Params, name string) []float64 {
	t.Helper()
	p, ok := ps.Get(name)
	if !ok {
		t.Fatalf("no parameter %q", name)
	}
	return f64s(p.F32())
}

// refSoftmax is the masked softmax over the valid positions; all zeros
// without any.
func refSoftmax(e []float64, valid []bool) []float64 {
	m := math.Inf(-1)
	for t, ok := range valid {
		if ok {
			m = math.Max(m, e[t])
		}
	}
	out := make([]float64, len(e))
	var sum float64
	for t, ok := range valid {
		if ok {
			out[t] = math.Exp(e[t] - m)
			sum += out[t]
		}
	}
	for t := range out {
		if sum > 0 {
			out[t] /= sum
		}
	}
	return out
}

// refContext returns Σ_t α_t·v_t for one row.
func refContext(alpha, values []float64, d int) []float64 {
	c := make([]float64, d)
	for t, a := range alpha {
		for i := range c {
			c[i] += a * values[t*d+i]
		}
	}
	return c
}

// refLinear returns x (n) · W (n, m).
func refLinear(x, w []float64, m int) []float64 {
	y := make([]float64, m)
	for i, xi := range x {
		for j := range y {
			y[j] += xi * w[i*m+j]
		}
	}
	return y
}

func checkClose(t *testing.T, what string, got []float32, want []float64, tol float64) {
	t.Helper()
	if d := maxAbs(f64s(got), want); d > tol {
		t.Errorf("%s: differs from the reference by %.3g\ngot  %v\nwant %v", what, d, got, want)
	}
}

// TestReferenceLocationAware checks Chorowski et al.'s eq. 8–9 with
// cumulative features, sharpening and a median window over two steps
// (Additive is the case without features).
func TestReferenceLocationAware(t *testing.T) {
	const nf, K, beta = 2, 3, 1.5
	win := Window{Left: 1, Right: 2}
	ps := newStore(tensor.Float32, 50)
	m, err := NewLocationAware(ps, "att", tH, tD, tA, &LocationOptions{Filters: nf, Width: K, Cumulative: true, Sharpen: beta, Window: win})
	if err != nil {
		t.Fatal(err)
	}
	perturbZeros(ps, 51)
	p := newProblem(52, tB, tT, tD, tH, 2, tLengths)
	states := eagerRun(t, m, p)
	w, u, bias, v := param(t, ps, "att.w"), param(t, ps, "att.u"), param(t, ps, "att.b"), param(t, ps, "att.v")
	filt, uf := param(t, ps, "att.conv"), param(t, ps, "att.loc")
	for s := range states {
		for b, n := range tLengths {
			var prev, cum []float64
			if s > 0 {
				prev = f64s(states[s-1].Weights[b*tT : (b+1)*tT])
				cum = f64s(states[s-1].Cumulative[b*tT : (b+1)*tT])
			}
			// Window around the median of the previous weights (0 first).
			c := 0
			if prev != nil {
				var run float64
				for c = 0; c < tT; c++ {
					if run += prev[c]; run >= 0.5 {
						break
					}
				}
			}
			q := refLinear(p.queries[s][b*tH:(b+1)*tH], w, tA)
			e := make([]float64, tT)
			valid := make([]bool, tT)
			for tt := 0; tt < tT; tt++ {
				valid[tt] = tt < n && tt >= c-win.Left && tt <= c+win.Right
				key := refLinear(p.memory[(b*tT+tt)*tD:(b*tT+tt+1)*tD], u, tA)
				f := make([]float64, nf) // eq. 8: f = F ∗ α_{i−1}
				for j := 0; j < nf && prev != nil; j++ {
					for k := 0; k < K; k++ {
						if x := tt + k - K/2; x >= 0 && x < tT {
							f[j] += filt[(j*2+0)*K+k]*prev[x] + filt[(j*2+1)*K+k]*cum[x]
						}
					}
				}
				lf := refLinear(f, uf, tA)
				for a := 0; a < tA; a++ { // eq. 9
					e[tt] += v[a] * math.Tanh(q[a]+key[a]+bias[a]+lf[a])
				}
				e[tt] *= beta
			}
			alpha := refSoftmax(e, valid)
			checkClose(t, "weights", states[s].Weights[b*tT:(b+1)*tT], alpha, 1e-5)
			checkClose(t, "context", states[s].Context[b*tD:(b+1)*tD], refContext(alpha, p.memory[b*tT*tD:(b+1)*tT*tD], tD), 1e-5)
		}
	}
}

// TestReferenceMultiplicative checks Luong's dot and general scores,
// Vaswani's scaled dot product and multi-head attention.
func TestReferenceMultiplicative(t *testing.T) {
	const d, heads = 6, 3
	cases := []struct {
		name  string
		build newMech
		// ref returns the weights (h, T) and context of one row.
		ref func(ps *models.Params, q, mem []float64, n int) ([]float64, []float64)
	}{
		{"Dot", func(*models.Params) (Mechanism, error) { return NewDot(tD) }, func(_ *models.Params, q, mem []float64, n int) ([]float64, []float64) {
			return refDot(q, mem, mem, n, tD, 1, 1)
		}},
		{"ScaledDot", func(*models.Params) (Mechanism, error) { return NewScaledDot(tD) }, func(_ *models.Params, q, mem []float64, n int) ([]float64, []float64) {
			return refDot(q, mem, mem, n, tD, 1, 1/math.Sqrt(tD))
		}},
		{"General", func(ps *models.Params) (Mechanism, error) { return NewGeneral(ps, "att", tH, tD) }, func(ps *models.Params, q, mem []float64, n int) ([]float64, []float64) {
			return refDot(refLinear(q, param(t, ps, "att.w"), tD), mem, mem, n, tD, 1, 1)
		}},
		{"MultiHead", func(ps *models.Params) (Mechanism, error) { return NewMultiHead(ps, "att", tH, tD, d, heads) }, func(ps *models.Params, q, mem []float64, n int) ([]float64, []float64) {
			var keys, values []float64
			for tt := 0; tt < tT; tt++ {
				keys = append(keys, refLinear(mem[tt*tD:(tt+1)*tD], param(t, ps, "att.wk"), d)...)
				values = append(values, refLinear(mem[tt*tD:(tt+1)*tD], param(t, ps, "att.wv"), d)...)
			}
			alpha, ctx := refDot(refLinear(q, param(t, ps, "att.wq"), d), keys, values, n, d, heads, 1/math.Sqrt(d/heads))
			return alpha, refLinear(ctx, param(t, ps, "att.wo"), d)
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ps := newStore(tensor.Float32, 53)
			m, err := tc.build(ps)
			if err != nil {
				t.Fatal(err)
			}
			H, C := m.Dims().Query, m.Dims().Context
			p := newProblem(54, tB, tT, tD, H, 1, tLengths)
			st := eagerRun(t, m, p)[0]
			for b, n := range tLengths {
				alpha, ctx := tc.ref(ps, p.queries[0][b*H:(b+1)*H], p.memory[b*tT*tD:(b+1)*tT*tD], n)
				if st.Heads != nil {
					checkClose(t, "heads", st.Heads[b*heads*tT:(b+1)*heads*tT], alpha, 1e-5)
				} else {
					checkClose(t, "weights", st.Weights[b*tT:(b+1)*tT], alpha, 1e-5)
				}
				checkClose(t, "context", st.Context[b*C:(b+1)*C], ctx, 1e-5)
			}
		})
	}
}

// refDot is h-head scaled dot-product attention for one row: weights
// (h, T) and the heads' contexts side by side (d).
func refDot(q, keys, values []float64, n, d, heads int, scale float64) ([]float64, []float64) {
	dk := d / heads
	var alpha []float64
	ctx := make([]float64, d)
	for j := 0; j < heads; j++ {
		e := make([]float64, tT)
		valid := make([]bool, tT)
		for tt := 0; tt < tT; tt++ {
			valid[tt] = tt < n
			for i := j * dk; i < (j+1)*dk; i++ {
				e[tt] += scale * q[i] * keys[tt*d+i]
			}
		}
		a := refSoftmax(e, valid)
		alpha = append(alpha, a...)
		for tt, w := range a {
			for i := j * dk; i < (j+1)*dk; i++ {
				ctx[i] += w * values[tt*d+i]
			}
		}
	}
	return alpha, ctx
}

// TestReferenceLocal checks Luong et al.'s eq. 9–10 and that the weights
// sit in the window [p − D, p + D] around the predicted center.
func TestReferenceLocal(t *testing.T) {
	const half = 2
	ps := newStore(tensor.Float32, 55)
	m, err := NewLocal(ps, "att", tH, tD, tA, half)
	if err != nil {
		t.Fatal(err)
	}
	p := newProblem(56, tB, tT, tD, tH, tS, tLengths)
	wa, wp, vp := param(t, ps, "att.wa"), param(t, ps, "att.wp"), param(t, ps, "att.vp")
	for s, st := range eagerRun(t, m, p) {
		for b, n := range tLengths {
			q := p.queries[s][b*tH : (b+1)*tH]
			var z float64
			for a, x := range refLinear(q, wp, tA) {
				z += vp[a] * math.Tanh(x)
			}
			center := float64(n) / (1 + math.Exp(-z)) // eq. 9
			if math.Abs(float64(st.Center[b])-center) > 1e-5 {
				t.Errorf("step %d row %d: center %v, want %v", s, b, st.Center[b], center)
			}
			qa := refLinear(q, wa, tD)
			e := make([]float64, tT)
			valid := make([]bool, tT)
			for tt := 0; tt < tT; tt++ {
				valid[tt] = tt < n && math.Abs(float64(tt)-center) <= half
				for i := 0; i < tD; i++ {
					e[tt] += qa[i] * p.memory[(b*tT+tt)*tD+i]
				}
			}
			alpha := refSoftmax(e, valid)
			sigma := half / 2.0
			for tt := range alpha { // eq. 10
				alpha[tt] *= math.Exp(-(float64(tt) - center) * (float64(tt) - center) / (2 * sigma * sigma))
			}
			checkClose(t, "weights", st.Weights[b*tT:(b+1)*tT], alpha, 1e-5)
			checkClose(t, "context", st.Context[b*tD:(b+1)*tD], refContext(alpha, p.memory[b*tT*tD:(b+1)*tT*tD], tD), 1e-5)
			for tt, w := range st.Weights[b*tT : (b+1)*tT] {
				if w != 0 && math.Abs(float64(tt)-center) > half {
					t.Errorf("step %d row %d: weight %v at %d, outside the window %.2f ± %d", s, b, w, tt, center, half)
				}
			}
		}
	}
}
