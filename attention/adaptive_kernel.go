package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// The two fused kernels of Adaptive (adaptive.go), in both faces. The
// score kernel writes w = [α | β] (B, T+1) per row,
//
//	z_t = vᵀ·tanh(proj_t + h·W)  (real t),   ŝ = vᵀ·tanh(s·U_s + b + h·W)
//	α   = softmax(z),   β = σ(ŝ − log Σ_t exp z_t)
//
// (β is the sentinel's share of the softmax over [z ; ŝ], computed from
// the log-sum-exp of the real scores so that α stays the plain softmax of
// the memory), and the context kernel reads ĉ = β·(s·P_s) + (1 − β)·Σ_t
// α_t·k_t. Their backward passes, with u = ŝ − lse(z):
//
//	∂β/∂ŝ = β(1 − β),   ∂β/∂z_t = −β(1 − β)·α_t
//	∂L/∂z_t = α_t·(∂L/∂α_t − Σ_s α_s·∂L/∂α_s) − β(1 − β)·∂L/∂β·α_t
//	∂L/∂α_t = (1 − β)·⟨∂L/∂ĉ, k_t⟩,   ∂L/∂β = ⟨∂L/∂ĉ, s·P_s − c⟩
//
// and the tanh scores' gradients as the Additive kernel forms them
// (models.TanhScoreBackward).

// adaptiveDims are Adaptive's widths: decoder state H, sentinel S,
// attention A, memory D. The query is [h | s] (H + S).
type adaptiveDims struct{ H, S, A, D int }

// adaptiveArgs are the score kernel's operands, or their gradients.
type adaptiveArgs[F Float] struct {
	adaptiveDims
	B, T  int
	proj  []F // (B, T, A): memory·U + b
	query []F // (B, H+S): [h | s]
	w     []F // (H, A)
	v     []F // (A)
	b     []F // (A)
	key   []F // (S, A): U_s
	mask  []F // (B, T); nil for no padding
}

// adaptiveScoreKernel is the score node. Inputs:
//
//	proj (B, T, A), query (B, H+S), W (H, A), v (A), b (A), U_s (S, A), mask (B, T), [token (1)]
//
// With a sink proj is read as a constant and its gradient added into the
// sink (see keySink); without one, proj is differentiable. Output
// [α | β] (B, T+1).
type adaptiveScoreKernel struct {
	adaptiveDims
	sink *keySink
}

func (k *adaptiveScoreKernel) Name() string { return "attention.AdaptiveScore" }

func (k *adaptiveScoreKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	n := 7
	if k.sink != nil {
		n++
	}
	if len(in) != n || in[0].Dims() != 3 || in[0][2] != k.A {
		return nil, fmt.Errorf("want proj (B, T, %d), query, W, v, b, U_s, mask%s; got %v: %w", k.A,
			map[bool]string{true: ", token"}[k.sink != nil], in, ErrShape)
	}
	B, T := in[0][0], in[0][1]
	if err := checkAdaptiveQuery(k.adaptiveDims, in[1], B); err != nil {
		return nil, err
	}
	for i, want := range []tensor.Shape{2: {k.H, k.A}, 3: {k.A}, 4: {k.A}, 5: {k.S, k.A}, 6: {B, T}} {
		if i >= 2 && !in[i].Eq(want) {
			return nil, fmt.Errorf("input %d is %v, want %v: %w", i, in[i], want, ErrShape)
		}
	}
	return tensor.Shape{B, T + 1}, nil
}

func (k *adaptiveScoreKernel) Differentiable(n int) []bool {
	d := []bool{k.sink == nil, true, true, true, true, true, false}
	if k.sink != nil {
		d = append(d, true) // the token: zero gradient
	}
	return d[:n]
}

func adaptiveOperands[F Float](d adaptiveDims, ts [][]F, s []tensor.Shape) *adaptiveArgs[F] {
	return &adaptiveArgs[F]{adaptiveDims: d, B: s[0][0], T: s[0][1],
		proj: ts[0], query: ts[1], w: ts[2], v: ts[3], b: ts[4], key: ts[5], mask: ts[6]}
}

func (k *adaptiveScoreKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := shapesOf(in)
	if out.Dtype() == tensor.Float64 {
		adaptiveScoreForward(adaptiveOperands(k.adaptiveDims, datas[float64](in), s), data[float64](out))
	} else {
		adaptiveScoreForward(adaptiveOperands(k.adaptiveDims, datas[float32](in), s), data[float32](out))
	}
	return nil
}

func (k *adaptiveScoreKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	if out.Dtype() == tensor.Float64 {
		adaptiveScoreKernelBackward[float64](k, dIn, dOut, out, in)
	} else {
		adaptiveScoreKernelBackward[float32](k, dIn, dOut, out, in)
	}
	return nil
}

func adaptiveScoreKernelBackward[F Float](k *adaptiveScoreKernel, dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) {
	s := shapesOf(in)
	x := adaptiveOperands(k.adaptiveDims, datas[F](in), s)
	g := adaptiveOperands(k.adaptiveDims, datas[F](dIn), s)
	if k.sink != nil {
		g.proj = k.sink.dproj.([]F)
		clear(data[F](dIn[len(dIn)-1]))
	} else {
		clear(g.proj)
	}
	adaptiveScoreBackward(x, g, data[F](out), data[F](dOut))
}

// adaptiveQueryTerms returns qw = h·W (B, A) and ks = s·U_s + b (B, A)
// in scratch buffers; give them back with putScratch.
func adaptiveQueryTerms[F Float](x *adaptiveArgs[F]) (qw, ks *[]F) {
	B, A, H, S := x.B, x.A, x.H, x.S
	Q := H + S
	qw, ks = getScratch[F](B*A), getScratch[F](B*A)
	models.Gemm(false, false, B, A, H, 1, x.query, Q, x.w, A, 0, *qw, A)
	models.Gemm(false, false, B, A, S, 1, x.query[H:], Q, x.key, A, 0, *ks, A)
	for r := 0; r < B; r++ {
		axpy(1, x.b, (*ks)[r*A:(r+1)*A])
	}
	return qw, ks
}

// adaptiveScoreForward writes [α | β] (B, T+1), spreading rows over
// goroutines (training).
func adaptiveScoreForward[F Float](x *adaptiveArgs[F], out []F) {
	qw, ks := adaptiveQueryTerms(x)
	defer putScratch(qw)
	defer putScratch(ks)
	models.ParallelFor(x.B, 1, func(lo, hi int) { adaptiveRows(x, *qw, *ks, out, lo, hi) })
}

// adaptiveScoreSerial is adaptiveScoreForward on the calling goroutine,
// for the eager face: it allocates nothing.
func adaptiveScoreSerial[F Float](x *adaptiveArgs[F], out []F) {
	qw, ks := adaptiveQueryTerms(x)
	adaptiveRows(x, *qw, *ks, out, 0, x.B)
	putScratch(qw)
	putScratch(ks)
}

// adaptiveRows computes [α | β] for the batch rows [lo, hi).
func adaptiveRows[F Float](x *adaptiveArgs[F], qw, ks, out []F, lo, hi int) {
	A, T := x.A, x.T
	for b := lo; b < hi; b++ {
		adaptiveRowForward(x, b, qw[b*A:(b+1)*A], ks[b*A:(b+1)*A], out[b*(T+1):(b+1)*(T+1)])
	}
}

func adaptiveRowForward[F Float](x *adaptiveArgs[F], b int, qw, ks, out []F) {
	T, A := x.T, x.A
	mask := row(x.mask, b, T)
	e := out[:T]
	var m F
	found := false
	for t := range e {
		if mask != nil && mask[t] <= 0 {
			e[t] = 0
			continue
		}
		z := models.TanhScore(x.proj[(b*T+t)*A:(b*T+t+1)*A], qw, nil, x.v)
		e[t] = z
		if !found || z > m {
			m, found = z, true
		}
	}
	if !found {
		clear(out) // all padding: no weights, no sentinel
		return
	}
	var sum F
	for t := range e {
		if mask != nil && mask[t] <= 0 {
			continue
		}
		p := models.Exp(e[t] - m)
		e[t] = p
		sum += p
	}
	inv := 1 / sum
	for t := range e {
		e[t] *= inv
	}
	out[T] = models.Sigmoid(models.TanhScore(ks, qw, nil, x.v) - (m + models.Log(sum)))
}

// adaptiveScoreBackward writes the gradients of query, W, v, b and U_s
// into g and adds ∂L/∂proj into g.proj, given w = [α | β] and dw.
func adaptiveScoreBackward[F Float](x, g *adaptiveArgs[F], w, dw []F) {
	B, T, A, H, S := x.B, x.T, x.A, x.H, x.S
	Q := H + S
	qw, ks := adaptiveQueryTerms(x)
	defer putScratch(qw)
	defer putScratch(ks)
	dqwBuf, dksBuf := getScratch[F](B*A), getScratch[F](B*A)
	defer putScratch(dqwBuf)
	defer putScratch(dksBuf)
	dqw, dks := *dqwBuf, *dksBuf
	clear(dqw)
	clear(dks)
	clear(g.v)
	for b := 0; b < B; b++ {
		o, d := w[b*(T+1):(b+1)*(T+1)], dw[b*(T+1):(b+1)*(T+1)]
		if realCount(row(x.mask, b, T), T) == 0 {
			continue // all padding: nothing was computed
		}
		alpha, beta := o[:T], o[T]
		gb := d[T] * beta * (1 - beta) // ∂L/∂ŝ
		var s F
		for t, a := range alpha {
			s += a * d[t]
		}
		rqw, rdqw := (*qw)[b*A:(b+1)*A], dqw[b*A:(b+1)*A]
		for t, a := range alpha {
			de := a * (d[t] - s - gb)
			if de == 0 {
				continue // padding, or a weight that underflowed to 0
			}
			r := (b*T + t) * A
			models.TanhScoreBackward(g.proj[r:r+A], g.v, rdqw, x.proj[r:r+A], rqw, nil, x.v, de, true)
		}
		models.TanhScoreBackward(dks[b*A:(b+1)*A], g.v, rdqw, (*ks)[b*A:(b+1)*A], rqw, nil, x.v, gb, false)
	}
	// [dh | ds] = [dqw·Wᵀ | dks·U_sᵀ]; dW = hᵀ·dqw; dU_s = sᵀ·dks; db = Σ dks.
	models.Gemm(false, true, B, H, A, 1, dqw, A, x.w, A, 0, g.query, Q)
	models.Gemm(false, true, B, S, A, 1, dks, A, x.key, A, 0, g.query[H:], Q)
	models.Gemm(true, false, H, A, B, 1, x.query, Q, dqw, A, 0, g.w, A)
	models.Gemm(true, false, S, A, B, 1, x.query[H:], Q, dks, A, 0, g.key, A)
	clear(g.b)
	for b := 0; b < B; b++ {
		axpy(1, dks[b*A:(b+1)*A], g.b)
	}
}

// adaptiveContextKernel is the context node. Inputs:
//
//	w = [α | β] (B, T+1), memory (B, T, D), query (B, H+S), P_s (S, D), [token (1)]
//
// With a sink the memory is a constant whose gradient is added into the
// sink; without one it is differentiable. Output ĉ (B, D).
type adaptiveContextKernel struct {
	adaptiveDims
	sink *keySink
}

func (k *adaptiveContextKernel) Name() string { return "attention.AdaptiveContext" }

func (k *adaptiveContextKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	n := 4
	if k.sink != nil {
		n++
	}
	if len(in) != n || in[1].Dims() != 3 || in[1][2] != k.D {
		return nil, fmt.Errorf("want weights (B, T+1), memory (B, T, %d), query, P_s%s; got %v: %w", k.D,
			map[bool]string{true: ", token"}[k.sink != nil], in, ErrShape)
	}
	B, T := in[1][0], in[1][1]
	if !in[0].Eq(tensor.Shape{B, T + 1}) {
		return nil, fmt.Errorf("weights %v, want (%d, %d): %w", in[0], B, T+1, ErrShape)
	}
	if err := checkAdaptiveQuery(k.adaptiveDims, in[2], B); err != nil {
		return nil, err
	}
	if !in[3].Eq(tensor.Shape{k.S, k.D}) {
		return nil, fmt.Errorf("P_s %v, want (%d, %d): %w", in[3], k.S, k.D, ErrShape)
	}
	return tensor.Shape{B, k.D}, nil
}

func (k *adaptiveContextKernel) Differentiable(n int) []bool {
	d := []bool{true, k.sink == nil, true, true}
	if k.sink != nil {
		d = append(d, true)
	}
	return d[:n]
}

func (k *adaptiveContextKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	B, T := in[1].Shape()[0], in[1].Shape()[1]
	if out.Dtype() == tensor.Float64 {
		x := datas[float64](in)
		adaptiveContextForward(k.adaptiveDims, data[float64](out), x[0], x[1], x[2], x[3], B, T)
	} else {
		x := datas[float32](in)
		adaptiveContextForward(k.adaptiveDims, data[float32](out), x[0], x[1], x[2], x[3], B, T)
	}
	return nil
}

func (k *adaptiveContextKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	if out.Dtype() == tensor.Float64 {
		adaptiveContextKernelBackward[float64](k, dIn, dOut, in)
	} else {
		adaptiveContextKernelBackward[float32](k, dIn, dOut, in)
	}
	return nil
}

func adaptiveContextKernelBackward[F Float](k *adaptiveContextKernel, dIn []*tensor.Dense, dOut *tensor.Dense, in []*tensor.Dense) {
	B, T := in[1].Shape()[0], in[1].Shape()[1]
	x, g := datas[F](in), datas[F](dIn)
	dmem := g[1]
	if k.sink != nil {
		dmem = k.sink.dmem.([]F)
		clear(g[4])
	} else {
		clear(dmem)
	}
	adaptiveContextBackward(k.adaptiveDims, g[0], dmem, g[2], g[3], data[F](dOut), x[0], x[1], x[2], x[3], B, T)
}

// sentinelValues returns s·P_s (B, D) in a scratch buffer; give it back
// with putScratch.
func sentinelValues[F Float](d adaptiveDims, query, ps []F, B int) *[]F {
	buf := getScratch[F](B * d.D)
	models.Gemm(false, false, B, d.D, d.S, 1, query[d.H:], d.H+d.S, ps, d.D, 0, *buf, d.D)
	return buf
}

// adaptiveContextForward writes ĉ (B, D) = β·(s·P_s) + (1 − β)·Σ_t α_t·k_t.
func adaptiveContextForward[F Float](d adaptiveDims, ctx, w, memory, query, ps []F, B, T int) {
	D := d.D
	sv := sentinelValues(d, query, ps, B)
	defer putScratch(sv)
	for b := 0; b < B; b++ {
		c := ctx[b*D : (b+1)*D]
		clear(c)
		o := w[b*(T+1) : (b+1)*(T+1)]
		beta := o[T]
		for t, a := range o[:T] {
			if a != 0 {
				axpy((1-beta)*a, memory[(b*T+t)*D:(b*T+t+1)*D], c)
			}
		}
		axpy(beta, (*sv)[b*D:(b+1)*D], c)
	}
}

// adaptiveContextBackward writes dw, dquery (zero on the h half) and dP_s,
// and adds ∂L/∂memory into dmem.
func adaptiveContextBackward[F Float](d adaptiveDims, dw, dmem, dquery, dps, dctx, w, memory, query, ps []F, B, T int) {
	D, H, S := d.D, d.H, d.S
	Q := H + S
	sv := sentinelValues(d, query, ps, B)
	defer putScratch(sv)
	dsvBuf := getScratch[F](B * D)
	defer putScratch(dsvBuf)
	dsv := *dsvBuf
	for b := 0; b < B; b++ {
		dc := dctx[b*D : (b+1)*D]
		o, do := w[b*(T+1):(b+1)*(T+1)], dw[b*(T+1):(b+1)*(T+1)]
		beta := o[T]
		var dotC F // ⟨dĉ, c⟩ = Σ_t α_t·⟨dĉ, k_t⟩
		for t, a := range o[:T] {
			k := memory[(b*T+t)*D : (b*T+t+1)*D]
			p := dot(dc, k)
			do[t] = (1 - beta) * p
			dotC += a * p
			if a != 0 {
				axpy((1-beta)*a, dc, dmem[(b*T+t)*D:(b*T+t+1)*D])
			}
		}
		do[T] = dot(dc, (*sv)[b*D:(b+1)*D]) - dotC
		for i, x := range dc {
			dsv[b*D+i] = beta * x
		}
		clear(dquery[b*Q : b*Q+H])
	}
	models.Gemm(false, true, B, S, D, 1, dsv, D, ps, D, 0, dquery[H:], Q)
	models.Gemm(true, false, S, D, B, 1, query[H:], Q, dsv, D, 0, dps, D)
}
