package models

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Linear is the affine layer y = x·W + b over the last axis of x:
//
//	x (…, In) · W (In, Out) + b (Out) → y (…, Out)
//
// so (N, In) and (B, T, In) inputs both take one GEMM over all leading
// rows. Its parameters are <prefix>.w (In, Out), Glorot-uniform, and
// <prefix>.b (Out), zero, unless LinearOptions.NoBias.
type Linear struct {
	W       *Param // (In, Out)
	B       *Param // (Out); nil without bias
	In, Out int
}

// LinearOptions configures NewLinear; a nil or zero value means the
// defaults noted.
type LinearOptions struct {
	NoBias bool // omit b (y = x·W); default false: with bias
}

// NewLinear creates the parameters of an In→Out affine layer under prefix.
func NewLinear(ps *Params, prefix string, in, out int, opts *LinearOptions) *Linear {
	l := &Linear{In: in, Out: out, W: ps.New(prefix+".w", GlorotUniform, in, out)}
	if opts == nil || !opts.NoBias {
		l.B = ps.New(prefix+".b", Zeros, out)
	}
	return l
}

// Apply is the graph face: it adds y = x·W + b to x's graph, reading the
// parameters from b.
func (l *Linear) Apply(b *Binding, x *gorgonia.Node) (*gorgonia.Node, error) {
	in := gorgonia.Nodes{x, b.Node(l.W.Name)}
	if l.B != nil {
		in = append(in, b.Node(l.B.Name))
	}
	return Apply(linearKernel{}, in...)
}

// Forward is the eager face: it computes y = x·W + b for rows rows of x
// (rows, In) into dst (rows, Out), growing dst when it is short, and
// returns dst. The parameters must be float32.
func (l *Linear) Forward(dst, x []float32, rows int) []float32 {
	dst = growFloats(dst, rows*l.Out)
	var bias []float32
	if l.B != nil {
		bias = floatsOf[float32](l.B.Value)
	}
	linearForward(dst, x, floatsOf[float32](l.W.Value), bias, rows, l.In, l.Out)
	return dst
}

// linearForward computes y (rows, O) = x (rows, I) · w (I, O) + b (O); b may
// be nil.
func linearForward[F Float](y, x, w, b []F, rows, in, out int) {
	if b == nil {
		gemm(false, false, rows, out, in, 1, x, in, w, out, 0, y, out)
		return
	}
	broadcastRows(y, rows, out, b)
	gemm(false, false, rows, out, in, 1, x, in, w, out, 1, y, out)
}

// linearKernel is y = x·W (+ b) with inputs x (…, I), W (I, O) and
// optionally b (O).
type linearKernel struct{}

func (linearKernel) Name() string { return "Linear" }

func (linearKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 && len(in) != 3 {
		return nil, fmt.Errorf("want inputs x, W[, b]; got %d inputs", len(in))
	}
	x, w := in[0], in[1]
	if x.Dims() < 1 || w.Dims() != 2 || x[x.Dims()-1] != w[0] {
		return nil, fmt.Errorf("x %v and W %v: want x (…, I) and W (I, O)", x, w)
	}
	if len(in) == 3 && (in[2].Dims() != 1 || in[2][0] != w[1]) {
		return nil, fmt.Errorf("b %v: want (%d)", in[2], w[1])
	}
	out := x.Clone()
	out[len(out)-1] = w[1]
	return out, nil
}

func (linearKernel) Differentiable(n int) []bool {
	d := make([]bool, n)
	for i := range d {
		d[i] = true
	}
	return d
}

func (linearKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	if out.Dtype() == tensor.Float32 {
		linearKernelForward[float32](out, in)
	} else {
		linearKernelForward[float64](out, in)
	}
	return nil
}

func linearKernelForward[F Float](out *tensor.Dense, in []*tensor.Dense) {
	ws := in[1].Shape()
	var b []F
	if len(in) == 3 {
		b = floatsOf[F](in[2])
	}
	rows := in[0].Shape().TotalSize() / ws[0]
	linearForward(floatsOf[F](out), floatsOf[F](in[0]), floatsOf[F](in[1]), b, rows, ws[0], ws[1])
}

func (linearKernel) Backward(dIn []*tensor.Dense, dOut, _ *tensor.Dense, in []*tensor.Dense) error {
	if dOut.Dtype() == tensor.Float32 {
		linearKernelBackward[float32](dIn, dOut, in)
	} else {
		linearKernelBackward[float64](dIn, dOut, in)
	}
	return nil
}

// linearKernelBackward: dx = dy·Wᵀ, dW = xᵀ·dy, db = Σ_rows dy.
func linearKernelBackward[F Float](dIn []*tensor.Dense, dOut *tensor.Dense, in []*tensor.Dense) {
	ws := in[1].Shape()
	I, O := ws[0], ws[1]
	rows := in[0].Shape().TotalSize() / I
	x, w, dy := floatsOf[F](in[0]), floatsOf[F](in[1]), floatsOf[F](dOut)
	gemm(false, true, rows, I, O, 1, dy, O, w, O, 0, floatsOf[F](dIn[0]), I)
	gemm(true, false, I, O, rows, 1, x, I, dy, O, 0, floatsOf[F](dIn[1]), O)
	if len(in) == 3 {
		sumRows(floatsOf[F](dIn[2]), dy, rows, O)
	}
}
