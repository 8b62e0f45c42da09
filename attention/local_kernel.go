package attention

import (
	"fmt"
	"math"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// centerKernel predicts Local's window centers (Luong et al. 2015, eq. 9):
//
//	p_b = S_b·σ(v_pᵀ·tanh(q_b·W_p))
//
// with S_b the number of real positions of row b. Inputs: query (B, H),
// W_p (H, A), v_p (A), mask (B, T). Output p (B).
type centerKernel struct{}

func (centerKernel) Name() string { return "attention.LocalCenter" }

func (centerKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 4 || in[0].Dims() != 2 || in[1].Dims() != 2 {
		return nil, fmt.Errorf("want query (B, H), Wp (H, A), vp (A), mask (B, T); got %v: %w", in, ErrShape)
	}
	B, H, A := in[0][0], in[0][1], in[1][1]
	if in[1][0] != H || !in[2].Eq(tensor.Shape{A}) || in[3].Dims() != 2 || in[3][0] != B {
		return nil, fmt.Errorf("want query (B, H), Wp (H, A), vp (A), mask (B, T); got %v: %w", in, ErrShape)
	}
	return tensor.Shape{B}, nil
}

func (centerKernel) Differentiable(int) []bool { return []bool{true, true, true, false} }

func (k centerKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := shapesOf(in)
	if out.Dtype() == tensor.Float64 {
		centerForward(data[float64](out), datas[float64](in), s[0][0], s[0][1], s[1][1], s[3][1], false)
	} else {
		centerForward(data[float32](out), datas[float32](in), s[0][0], s[0][1], s[1][1], s[3][1], false)
	}
	return nil
}

func (k centerKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	s := shapesOf(in)
	if out.Dtype() == tensor.Float64 {
		centerBackward(datas[float64](dIn), data[float64](dOut), datas[float64](in), s[0][0], s[0][1], s[1][1], s[3][1])
	} else {
		centerBackward(datas[float32](dIn), data[float32](dOut), datas[float32](in), s[0][0], s[0][1], s[1][1], s[3][1])
	}
	return nil
}

// centerForward writes p (B) from in = query, Wp, vp, mask; serial is the
// allocation-free path of the eager face.
func centerForward[F Float](p []F, in [][]F, B, H, A, T int, serial bool) {
	query, wp, vp, mask := in[0], in[1], in[2], in[3]
	buf := getScratch[F](B * A)
	defer putScratch(buf)
	u := *buf // (B, A) = query·Wp
	if serial {
		models.Gemm(false, false, B, A, H, 1, query, H, wp, A, 0, u, A)
	} else {
		models.Gemm(false, false, B, A, H, 1, query, H, wp, A, 0, u, A)
	}
	for b := 0; b < B; b++ {
		var s F
		for a, x := range u[b*A : (b+1)*A] {
			s += vp[a] * models.Tanh(x)
		}
		p[b] = F(realCount(row(mask, b, T), T)) * models.Sigmoid(s)
	}
}

// centerBackward writes the gradients of query, Wp and vp.
func centerBackward[F Float](dIn [][]F, dp []F, in [][]F, B, H, A, T int) {
	query, wp, vp, mask := in[0], in[1], in[2], in[3]
	buf := getScratch[F](2 * B * A)
	defer putScratch(buf)
	z, du := (*buf)[:B*A], (*buf)[B*A:]
	models.Gemm(false, false, B, A, H, 1, query, H, wp, A, 0, z, A)
	dvp := dIn[2]
	clear(dvp)
	for b := 0; b < B; b++ {
		zb, dub := z[b*A:(b+1)*A], du[b*A:(b+1)*A]
		var s F
		for a, x := range zb {
			zb[a] = models.Tanh(x)
			s += vp[a] * zb[a]
		}
		sig := models.Sigmoid(s)
		ds := dp[b] * F(realCount(row(mask, b, T), T)) * sig * (1 - sig)
		for a, y := range zb {
			dvp[a] += ds * y
			dub[a] = ds * vp[a] * (1 - y*y)
		}
	}
	models.Gemm(false, true, B, H, A, 1, du, A, wp, A, 0, dIn[0], H)
	models.Gemm(true, false, H, A, B, 1, query, H, du, A, 0, dIn[1], A)
}

// localKernel is Luong's local-p alignment (Luong et al. 2015, eq. 10):
//
//	e_t = (q·W_a)ᵀ·k_t                       "general" score
//	a   = softmax of e over the real t in [p − D, p + D]
//	α_t = a_t·exp(−(t − p)²/(2σ²)),  σ = D/2
//
// and α_t = 0 outside the window. Inputs: keys (B, T, Dk), query (B, H),
// W_a (H, Dk), p (B), mask (B, T). Output α (B, T). The gradient flows to p
// through the Gaussian (the window's bounds are piecewise constant).
type localKernel struct {
	halfWidth int
}

func (k localKernel) Name() string { return fmt.Sprintf("attention.LocalScore(D=%d)", k.halfWidth) }

func (k localKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 5 || in[0].Dims() != 3 || in[1].Dims() != 2 {
		return nil, fmt.Errorf("want keys (B, T, D), query (B, H), Wa (H, D), p (B), mask (B, T); got %v: %w", in, ErrShape)
	}
	B, T, D, H := in[0][0], in[0][1], in[0][2], in[1][1]
	if in[1][0] != B || !in[2].Eq(tensor.Shape{H, D}) || !in[3].Eq(tensor.Shape{B}) || !in[4].Eq(tensor.Shape{B, T}) {
		return nil, fmt.Errorf("want keys (B, T, D), query (B, H), Wa (H, D), p (B), mask (B, T); got %v: %w", in, ErrShape)
	}
	return tensor.Shape{B, T}, nil
}

func (localKernel) Differentiable(int) []bool { return []bool{true, true, true, true, false} }

// localArgs holds the operands of Local's weights (or their gradients).
type localArgs[F Float] struct {
	B, T, D, H int
	keys       []F // (B, T, D)
	query      []F // (B, H)
	wa         []F // (H, D)
	p          []F // (B)
	mask       []F // (B, T)
}

func localOperands[F Float](ts [][]F, s []tensor.Shape) *localArgs[F] {
	return &localArgs[F]{B: s[0][0], T: s[0][1], D: s[0][2], H: s[1][1], keys: ts[0], query: ts[1], wa: ts[2], p: ts[3], mask: ts[4]}
}

func (k localKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := shapesOf(in)
	if out.Dtype() == tensor.Float64 {
		localForward(k.halfWidth, localOperands(datas[float64](in), s), data[float64](out), false)
	} else {
		localForward(k.halfWidth, localOperands(datas[float32](in), s), data[float32](out), false)
	}
	return nil
}

func (k localKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	s := shapesOf(in)
	if out.Dtype() == tensor.Float64 {
		localBackward(k.halfWidth, localOperands(datas[float64](in), s), localOperands(datas[float64](dIn), s), data[float64](out), data[float64](dOut))
	} else {
		localBackward(k.halfWidth, localOperands(datas[float32](in), s), localOperands(datas[float32](dIn), s), data[float32](out), data[float32](dOut))
	}
	return nil
}

// localWindow returns the window [lo, hi) of positions within halfWidth of
// the center p, clipped to [0, T).
func localWindow[F Float](p F, halfWidth, T int) (lo, hi int) {
	c := float64(p)
	lo = max(0, int(math.Ceil(c-float64(halfWidth))))
	hi = min(T, int(math.Floor(c+float64(halfWidth)))+1)
	return lo, max(lo, hi)
}

// gaussian returns exp(−(t − p)²/(2σ²)) with σ = halfWidth/2.
func gaussian[F Float](t int, p F, halfWidth int) F {
	sigma := F(halfWidth) / 2
	d := F(t) - p
	return models.Exp(-d * d / (2 * sigma * sigma))
}

// localForward writes α (B, T); serial is the eager face's allocation-free
// path.
func localForward[F Float](halfWidth int, x *localArgs[F], alpha []F, serial bool) {
	B, T, D, H := x.B, x.T, x.D, x.H
	buf := getScratch[F](B * D)
	defer putScratch(buf)
	q := *buf // (B, D) = query·Wa
	if serial {
		models.Gemm(false, false, B, D, H, 1, x.query, H, x.wa, D, 0, q, D)
	} else {
		models.Gemm(false, false, B, D, H, 1, x.query, H, x.wa, D, 0, q, D)
	}
	for b := 0; b < B; b++ {
		a, mask, p := row(alpha, b, T), row(x.mask, b, T), x.p[b]
		lo, hi := localWindow(p, halfWidth, T)
		for t := lo; t < hi; t++ {
			if mask == nil || mask[t] > 0 {
				a[t] = dot(q[b*D:(b+1)*D], x.keys[(b*T+t)*D:(b*T+t+1)*D])
			}
		}
		softmaxRow(a, a, mask, lo, hi, 1)
		for t := lo; t < hi; t++ {
			a[t] *= gaussian(t, p, halfWidth)
		}
	}
}

// localBackward writes the gradients of keys, query, Wa and p.
func localBackward[F Float](halfWidth int, x, g *localArgs[F], alpha, dAlpha []F) {
	B, T, D, H := x.B, x.T, x.D, x.H
	buf := getScratch[F](2*B*D + 2*T)
	defer putScratch(buf)
	q, dq := (*buf)[:B*D], (*buf)[B*D:2*B*D]
	a, da := (*buf)[2*B*D:2*B*D+T], (*buf)[2*B*D+T:]
	models.Gemm(false, false, B, D, H, 1, x.query, H, x.wa, D, 0, q, D)
	clear(g.keys)
	clear(dq)
	variance := F(halfWidth) * F(halfWidth) / 4
	for b := 0; b < B; b++ {
		p := x.p[b]
		lo, hi := localWindow(p, halfWidth, T)
		clear(a)
		clear(da)
		var dp F
		for t := lo; t < hi; t++ {
			gt := gaussian(t, p, halfWidth)
			at := alpha[b*T+t] / gt // the softmax before the Gaussian
			a[t], da[t] = at, dAlpha[b*T+t]*gt
			dp += dAlpha[b*T+t] * at * gt * (F(t) - p) / variance
		}
		g.p[b] = dp
		softmaxBackwardRow(a, a, da, 1) // a now holds de
		for t := lo; t < hi; t++ {
			if de := a[t]; de != 0 {
				axpy(de, x.keys[(b*T+t)*D:(b*T+t+1)*D], dq[b*D:(b+1)*D])
				axpy(de, q[b*D:(b+1)*D], g.keys[(b*T+t)*D:(b*T+t+1)*D])
			}
		}
	}
	models.Gemm(false, true, B, H, D, 1, dq, D, x.wa, D, 0, g.query, H)
	models.Gemm(true, false, H, D, B, 1, x.query, H, dq, D, 0, g.wa, D)
}
