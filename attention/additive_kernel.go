package attention

import (
	"fmt"

	"gorgonia.org/tensor"
)

// additiveKernel is the fused additive score step as a models.Kernel:
// scores, mask, window, sharpening and softmax in one node whose output is
// α (B, T). Its inputs, in order:
//
//	proj (B, T, A), query (B, H), W (H, A), v (A), mask (B, T),
//	[prev (B, T), [cum (B, T)], [filters (nf, C, K), Uf (nf, A)]], [token (1)]
//
// prev (and cum when C = 2) are present when the step has a previous step
// and needs it (location features or a window); filters and Uf are present
// when location features are configured and there is a previous step (on
// the first step the location term is zero).
//
// The context is a separate contextKernel: it keeps both outputs dense and
// contiguous (no Slice views to materialize downstream) and serves every
// mechanism. Its backward pass hands dα to this kernel's backward pass,
// which recomputes tanh instead of storing activations.
//
// With a sink, proj is read as a constant and the last input is the sink's
// token: the backward pass adds ∂L/∂proj into the sink (see keySink) and
// gives the token a zero gradient.
type additiveKernel struct {
	spec *additiveSpec
	prev bool // prev (and cum) inputs present
	sink *keySink
}

func (k *additiveKernel) loc() bool { return k.spec.filters > 0 && k.prev }

// layout returns the input count and the indexes of the optional inputs
// (−1 when absent) but the token, which is the last when there is a sink.
func (k *additiveKernel) layout() (n, prev, cum, filters, uf int) {
	n, prev, cum, filters, uf = 5, -1, -1, -1, -1
	if k.prev {
		prev, n = n, n+1
		if k.spec.channels == 2 && k.spec.filters > 0 {
			cum, n = n, n+1
		}
	}
	if k.loc() {
		filters, uf, n = n, n+1, n+2
	}
	if k.sink != nil {
		n++
	}
	return
}

func (k *additiveKernel) Name() string {
	if k.spec.filters > 0 {
		return fmt.Sprintf("attention.LocationScore(nf=%d,K=%d,C=%d)", k.spec.filters, k.spec.width, k.spec.channels)
	}
	return "attention.AdditiveScore"
}

func (k *additiveKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	n, iPrev, iCum, iF, iUf := k.layout()
	if len(in) != n {
		return nil, fmt.Errorf("%d inputs, want %d: %w", len(in), n, ErrShape)
	}
	proj := in[0]
	if proj.Dims() != 3 {
		return nil, fmt.Errorf("keys projection %v, want (B, T, A): %w", proj, ErrShape)
	}
	B, T, A := proj[0], proj[1], proj[2]
	if in[1].Dims() != 2 || in[1][0] != B {
		return nil, fmt.Errorf("query %v, want (%d, H): %w", in[1], B, ErrShape)
	}
	H := in[1][1]
	check := func(i int, what string, want ...int) error {
		if i >= 0 && !in[i].Eq(tensor.Shape(want)) {
			return fmt.Errorf("%s %v, want %v: %w", what, in[i], tensor.Shape(want), ErrShape)
		}
		return nil
	}
	for _, err := range []error{
		check(2, "W", H, A),
		check(3, "v", A),
		check(4, "mask", B, T),
		check(iPrev, "previous weights", B, T),
		check(iCum, "cumulative weights", B, T),
		check(iF, "location filters", k.spec.filters, k.spec.channels, k.spec.width),
		check(iUf, "location projection", k.spec.filters, A),
	} {
		if err != nil {
			return nil, err
		}
	}
	return tensor.Shape{B, T}, nil
}

func (k *additiveKernel) Differentiable(n int) []bool {
	d := make([]bool, n)
	_, iPrev, iCum, iF, iUf := k.layout()
	d[0], d[1], d[2], d[3] = k.sink == nil, true, true, true // proj (unless through the sink), query, W, v; not the mask
	if k.sink != nil {
		d[n-1] = true // the token
	}
	for _, i := range []int{iF, iUf} {
		if i >= 0 {
			d[i] = true
		}
	}
	if k.loc() { // the window's center is piecewise constant: no gradient
		d[iPrev] = true
		if iCum >= 0 {
			d[iCum] = true
		}
	}
	return d
}

// additiveOperands gathers the operands (or, for gradients, their slices) of one call.
func additiveOperands[F Float](k *additiveKernel, ts [][]F, shapes []tensor.Shape) *additiveArgs[F] {
	_, iPrev, iCum, iF, iUf := k.layout()
	s := shapes[0]
	x := &additiveArgs[F]{B: s[0], T: s[1], A: s[2], H: shapes[1][1],
		proj: ts[0], query: ts[1], w: ts[2], v: ts[3], mask: ts[4]}
	at := func(i int) []F {
		if i < 0 {
			return nil
		}
		return ts[i]
	}
	x.prev, x.cum, x.filters, x.uf = at(iPrev), at(iCum), at(iF), at(iUf)
	return x
}

func (k *additiveKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	shapes := shapesOf(in)
	if out.Dtype() == tensor.Float64 {
		additiveForward(k.spec, additiveOperands(k, datas[float64](in), shapes), data[float64](out))
	} else {
		additiveForward(k.spec, additiveOperands(k, datas[float32](in), shapes), data[float32](out))
	}
	return nil
}

func (k *additiveKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	if out.Dtype() == tensor.Float64 {
		additiveKernelBackward[float64](k, dIn, dOut, out, in)
	} else {
		additiveKernelBackward[float32](k, dIn, dOut, out, in)
	}
	return nil
}

func additiveKernelBackward[F Float](k *additiveKernel, dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) {
	shapes := shapesOf(in)
	x := additiveOperands(k, datas[F](in), shapes)
	g := additiveOperands(k, datas[F](dIn), shapes)
	if k.sink != nil {
		g.proj, g.addProj = k.sink.dproj.([]F), true
		clear(data[F](dIn[len(dIn)-1]))
	}
	additiveBackward(k.spec, x, g, data[F](out), data[F](dOut))
}

func shapesOf(ts []*tensor.Dense) []tensor.Shape {
	s := make([]tensor.Shape, len(ts))
	for i, t := range ts {
		s[i] = t.Shape()
	}
	return s
}
