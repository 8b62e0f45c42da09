package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Gate is the gating scalar of Show, Attend and Tell (Xu et al. 2015,
// §4.2.1): a step scales its context by
//
//	β = σ(h·w + b)        (one scalar per row)
//
// computed from the decoder state h (B, H), so the decoder can turn
// attention down for words that do not depend on the image ("the", "of").
// Xu et al. found that it makes the attention maps sharper and more
// interpretable. Parameters: prefix.w (H), prefix.b (1).
type Gate struct {
	name string
	H    int
	w, b *models.Param
}

// NewGate creates a gate for decoder states of width H; w starts
// Glorot-uniform and b at 0 (β ≈ ½).
func NewGate(ps *models.Params, prefix string, H int) (*Gate, error) {
	if err := checkDims("Gate", ps, prefix, map[string]int{"state width": H}); err != nil {
		return nil, err
	}
	for _, n := range []string{".w", ".b"} {
		if _, dup := ps.Get(prefix + n); dup {
			return nil, fmt.Errorf("attention: Gate: parameter %q already exists: %w", prefix+n, ErrConfig)
		}
	}
	return &Gate{
		name: fmt.Sprintf("Gate(%s: H=%d)", prefix, H), H: H,
		w: ps.New(prefix+".w", models.GlorotUniform, H),
		b: ps.New(prefix+".b", models.Zeros, 1),
	}, nil
}

// Name names the gate.
func (g *Gate) Name() string { return g.name }

// Apply writes dst (B, D) = β ⊙ ctx for contexts ctx (B, D) and decoder
// states h (B, H), and the gates β (B) into beta unless it is nil. dst may
// be ctx. It allocates nothing.
func (g *Gate) Apply(dst, beta, ctx, h []float32) error {
	if g.w.Value.Dtype() != tensor.Float32 {
		return fmt.Errorf("attention: %s: parameters are %v; the eager face computes in float32: %w", g.name, g.w.Value.Dtype(), ErrDtype)
	}
	if len(h)%g.H != 0 || len(h) == 0 {
		return fmt.Errorf("attention: %s: states have %d values, want a multiple of H = %d: %w", g.name, len(h), g.H, ErrShape)
	}
	B := len(h) / g.H
	if len(ctx)%B != 0 || len(dst) != len(ctx) || (beta != nil && len(beta) != B) {
		return fmt.Errorf("attention: %s: %d rows, contexts %d values, dst %d, beta %d: %w", g.name, B, len(ctx), len(dst), len(beta), ErrShape)
	}
	gateForward(dst, beta, [][]float32{ctx, h, f32(g.w), f32(g.b)}, B, len(ctx)/B, g.H)
	return nil
}

// Node returns β ⊙ ctx (B, D) for a context node ctx (B, D) and a state
// node h (B, H).
func (g *Gate) Node(b *models.Binding, ctx, h *gorgonia.Node) (*gorgonia.Node, error) {
	if ctx == nil || h == nil {
		return nil, fmt.Errorf("attention: %s: nil node: %w", g.name, ErrShape)
	}
	n, err := models.Apply(gateKernel{}, ctx, h, b.Node(g.w.Name), b.Node(g.b.Name))
	if err != nil {
		return nil, fmt.Errorf("attention: %s: %w", g.name, err)
	}
	return n, nil
}

// gateKernel computes β ⊙ ctx. Inputs: ctx (B, D), h (B, H), w (H), b (1).
type gateKernel struct{}

func (gateKernel) Name() string { return "attention.Gate" }

func (gateKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 4 || in[0].Dims() != 2 || in[1].Dims() != 2 || in[0][0] != in[1][0] ||
		!in[2].Eq(tensor.Shape{in[1][1]}) || !in[3].Eq(tensor.Shape{1}) {
		return nil, fmt.Errorf("want ctx (B, D), h (B, H), w (H), b (1); got %v: %w", in, ErrShape)
	}
	return in[0].Clone(), nil
}

func (gateKernel) Differentiable(int) []bool { return []bool{true, true, true, true} }

func (gateKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	B, D, H := in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1]
	if out.Dtype() == tensor.Float64 {
		gateForward(data[float64](out), nil, datas[float64](in), B, D, H)
	} else {
		gateForward(data[float32](out), nil, datas[float32](in), B, D, H)
	}
	return nil
}

func (gateKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	B, D, H := in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1]
	if out.Dtype() == tensor.Float64 {
		gateBackward(datas[float64](dIn), data[float64](dOut), datas[float64](in), B, D, H)
	} else {
		gateBackward(datas[float32](dIn), data[float32](dOut), datas[float32](in), B, D, H)
	}
	return nil
}

func gateForward[F Float](out, beta []F, in [][]F, B, D, H int) {
	ctx, h, w, bias := in[0], in[1], in[2], in[3]
	for r := 0; r < B; r++ {
		g := models.Sigmoid(dot(h[r*H:(r+1)*H], w) + bias[0])
		if beta != nil {
			beta[r] = g
		}
		for d, c := range ctx[r*D : (r+1)*D] {
			out[r*D+d] = g * c
		}
	}
}

func gateBackward[F Float](dIn [][]F, dOut []F, in [][]F, B, D, H int) {
	ctx, h, w, bias := in[0], in[1], in[2], in[3]
	dCtx, dh, dw, db := dIn[0], dIn[1], dIn[2], dIn[3]
	clear(dw)
	db[0] = 0
	for r := 0; r < B; r++ {
		g := models.Sigmoid(dot(h[r*H:(r+1)*H], w) + bias[0])
		var dBeta F
		for d, c := range ctx[r*D : (r+1)*D] {
			dBeta += dOut[r*D+d] * c
			dCtx[r*D+d] = g * dOut[r*D+d]
		}
		ds := dBeta * g * (1 - g)
		for i, x := range w {
			dh[r*H+i] = ds * x
		}
		axpy(ds, h[r*H:(r+1)*H], dw)
		db[0] += ds
	}
}
