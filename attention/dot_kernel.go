package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// dotKernel is the fused multiplicative score step of Dot, General,
// ScaledDot and MultiHead:
//
//	q'         = query·W  (or query itself when there is no W)       (B, d)
//	e[b,j,t]   = s·⟨q'[b, head j], K[b, t, head j]⟩
//	α[b,j,:]   = softmax over the real t of e[b,j,:]
//
// with h heads splitting d into slices of d/h and scale s. Inputs: keys
// (B, T, d), query (B, Hq), mask (B, T) and, when proj is set, W (Hq, d).
// The output is α (B, T), or (B, h, T) when headAxis is set (MultiHead,
// even with one head).
type dotKernel struct {
	heads    int
	scale    float64
	proj     bool
	headAxis bool
}

func (k dotKernel) Name() string {
	return fmt.Sprintf("attention.DotScore(h=%d,s=%.3g,W=%v)", k.heads, k.scale, k.proj)
}

func (k dotKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	n := 3
	if k.proj {
		n = 4
	}
	if len(in) != n {
		return nil, fmt.Errorf("%d inputs, want %d: %w", len(in), n, ErrShape)
	}
	keys, q, mask := in[0], in[1], in[2]
	if keys.Dims() != 3 || q.Dims() != 2 || q[0] != keys[0] {
		return nil, fmt.Errorf("keys %v and query %v, want (B, T, d) and (B, H): %w", keys, q, ErrShape)
	}
	B, T, d := keys[0], keys[1], keys[2]
	if !mask.Eq(tensor.Shape{B, T}) {
		return nil, fmt.Errorf("mask %v, want (%d, %d): %w", mask, B, T, ErrShape)
	}
	if k.proj && !in[3].Eq(tensor.Shape{q[1], d}) {
		return nil, fmt.Errorf("W %v, want (%d, %d): %w", in[3], q[1], d, ErrShape)
	}
	if !k.proj && q[1] != d {
		return nil, fmt.Errorf("query width %d ≠ key width %d: %w", q[1], d, ErrShape)
	}
	if d%k.heads != 0 {
		return nil, fmt.Errorf("key width %d not divisible by %d heads: %w", d, k.heads, ErrShape)
	}
	if k.headAxis {
		return tensor.Shape{B, k.heads, T}, nil
	}
	if k.heads != 1 {
		return nil, fmt.Errorf("%d heads need a head axis: %w", k.heads, ErrShape)
	}
	return tensor.Shape{B, T}, nil
}

func (k dotKernel) Differentiable(n int) []bool {
	d := []bool{true, true, false, true}
	return d[:n]
}

// dotArgs holds the operands of one dot score (or their gradients).
type dotArgs[F Float] struct {
	B, T, d, H int
	keys       []F // (B, T, d)
	query      []F // (B, H)
	mask       []F // (B, T); nil for no padding
	w          []F // (H, d); nil when the query is used as is
}

func dotOperands[F Float](k dotKernel, ts [][]F, shapes []tensor.Shape) *dotArgs[F] {
	x := &dotArgs[F]{B: shapes[0][0], T: shapes[0][1], d: shapes[0][2], H: shapes[1][1], keys: ts[0], query: ts[1], mask: ts[2]}
	if k.proj {
		x.w = ts[3]
	}
	return x
}

func (k dotKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	shapes := shapesOf(in)
	if out.Dtype() == tensor.Float64 {
		dotForward(k, dotOperands(k, datas[float64](in), shapes), data[float64](out))
	} else {
		dotForward(k, dotOperands(k, datas[float32](in), shapes), data[float32](out))
	}
	return nil
}

func (k dotKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	shapes := shapesOf(in)
	if out.Dtype() == tensor.Float64 {
		dotBackward(k, dotOperands(k, datas[float64](in), shapes), dotOperands(k, datas[float64](dIn), shapes), data[float64](out), data[float64](dOut))
	} else {
		dotBackward(k, dotOperands(k, datas[float32](in), shapes), dotOperands(k, datas[float32](dIn), shapes), data[float32](out), data[float32](dOut))
	}
	return nil
}

// dotForward writes α, spreading rows over goroutines (training).
func dotForward[F Float](k dotKernel, x *dotArgs[F], alpha []F) {
	q := x.query
	if x.w != nil {
		buf := getScratch[F](x.B * x.d)
		defer putScratch(buf)
		q = *buf // (B, d) = query·W
		models.Gemm(false, false, x.B, x.d, x.H, 1, x.query, x.H, x.w, x.d, 0, q, x.d)
	}
	models.ParallelFor(x.B, 2, func(lo, hi int) { dotRows(k, x, q, alpha, lo, hi) })
}

// dotForwardSerial is dotForward on the calling goroutine, for the eager
// face: it allocates nothing.
func dotForwardSerial[F Float](k dotKernel, x *dotArgs[F], alpha []F) {
	q := x.query
	if x.w != nil {
		buf := getScratch[F](x.B * x.d)
		defer putScratch(buf)
		q = *buf
		models.Gemm(false, false, x.B, x.d, x.H, 1, x.query, x.H, x.w, x.d, 0, q, x.d)
	}
	dotRows(k, x, q, alpha, 0, x.B)
}

func dotRows[F Float](k dotKernel, x *dotArgs[F], q, alpha []F, lo, hi int) {
	T, d, h := x.T, x.d, k.heads
	dk := d / h
	s := F(k.scale)
	for b := lo; b < hi; b++ {
		mask := row(x.mask, b, T)
		for j := 0; j < h; j++ {
			qj := q[b*d+j*dk : b*d+(j+1)*dk]
			e := alpha[(b*h+j)*T : (b*h+j+1)*T]
			for t := 0; t < T; t++ {
				if mask == nil || mask[t] > 0 {
					off := (b*T+t)*d + j*dk
					e[t] = s * dot(qj, x.keys[off:off+dk])
				}
			}
			softmaxRow(e, e, mask, 0, T, 1)
		}
	}
}

// dotBackward writes the gradients of keys, query and W (when present).
func dotBackward[F Float](k dotKernel, x, g *dotArgs[F], alpha, dAlpha []F) {
	B, T, d, h := x.B, x.T, x.d, k.heads
	dk := d / h
	s := F(k.scale)
	q, dq := x.query, g.query
	if x.w != nil {
		qBuf, dqBuf := getScratch[F](B*d), getScratch[F](B*d)
		defer putScratch(qBuf)
		defer putScratch(dqBuf)
		q, dq = *qBuf, *dqBuf
		models.Gemm(false, false, B, d, x.H, 1, x.query, x.H, x.w, d, 0, q, d)
	}
	models.ParallelFor(B, 2, func(lo, hi int) {
		buf := getScratch[F](T)
		defer putScratch(buf)
		de := *buf
		for b := lo; b < hi; b++ {
			clear(g.keys[b*T*d : (b+1)*T*d])
			clear(dq[b*d : (b+1)*d])
			for j := 0; j < h; j++ {
				i0 := (b*h + j) * T
				softmaxBackwardRow(de, alpha[i0:i0+T], dAlpha[i0:i0+T], s)
				qj, dqj := q[b*d+j*dk:b*d+(j+1)*dk], dq[b*d+j*dk:b*d+(j+1)*dk]
				for t, e := range de {
					if e != 0 {
						off := (b*T+t)*d + j*dk
						axpy(e, x.keys[off:off+dk], dqj)
						axpy(e, qj, g.keys[off:off+dk])
					}
				}
			}
		}
	})
	if x.w != nil {
		models.Gemm(false, true, B, x.H, d, 1, dq, d, x.w, d, 0, g.query, x.H)
		models.Gemm(true, false, x.H, d, B, 1, x.query, x.H, dq, d, 0, g.w, d)
	}
}
