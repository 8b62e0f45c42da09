package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// contextKernel reads the memory with attention weights:
//
//	c[b, head j] = Σ_t α[b, j, t]·V[b, t, head j]
//
// with α (B, h, T), or (B, T) for one head, V (B, T, d) whose
// last axis splits into h slices of d/h, and c (B, d). Positions of weight
// exactly 0 (padding, outside a window, not sampled) are skipped.
//
// With a sink, V is the memory of prepared keys, read as a constant: a
// third input, the sink's token, follows it, and the backward pass adds
// ∂L/∂V into the sink (see keySink) and gives the token a zero gradient.
type contextKernel struct {
	heads int
	// alphaConst marks α as not differentiable: Hard attention's one-hot
	// samples, whose gradient is REINFORCE's business.
	alphaConst bool
	sink       *keySink
}

// contextNode adds the context node of one head over the keys' memory,
// through their sink when they have one.
func contextNode(owner Mechanism, k contextKernel, alpha *gorgonia.Node, keys KeysNodes) (*gorgonia.Node, error) {
	if keys.sink == nil {
		return apply(owner, k, alpha, keys.Memory)
	}
	k.sink = keys.sink
	return apply(owner, k, alpha, keys.Memory, keys.token)
}

func (k contextKernel) Name() string { return fmt.Sprintf("attention.Context(h=%d)", k.heads) }

func (k contextKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	inputs := 2
	if k.sink != nil {
		inputs = 3 // and the token
	}
	if len(in) != inputs || in[1].Dims() != 3 {
		return nil, fmt.Errorf("want weights, values (B, T, d)%s; got %v: %w", map[bool]string{true: " and the sink's token"}[k.sink != nil], in, ErrShape)
	}
	v := in[1]
	want := tensor.Shape{v[0], k.heads, v[1]}
	if in[0].Dims() == 2 && k.heads == 1 {
		want = tensor.Shape{v[0], v[1]}
	}
	if !in[0].Eq(want) {
		return nil, fmt.Errorf("weights %v, want %v for values %v: %w", in[0], want, v, ErrShape)
	}
	if v[2]%k.heads != 0 {
		return nil, fmt.Errorf("value width %d not divisible by %d heads: %w", v[2], k.heads, ErrShape)
	}
	return tensor.Shape{v[0], v[2]}, nil
}

func (k contextKernel) Differentiable(int) []bool {
	if k.sink != nil {
		return []bool{!k.alphaConst, false, true}
	}
	return []bool{!k.alphaConst, true}
}

func (k contextKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := in[1].Shape()
	if out.Dtype() == tensor.Float64 {
		contextForward(data[float64](out), data[float64](in[0]), data[float64](in[1]), s[0], k.heads, s[1], s[2], true)
	} else {
		contextForward(data[float32](out), data[float32](in[0]), data[float32](in[1]), s[0], k.heads, s[1], s[2], true)
	}
	return nil
}

func (k contextKernel) Backward(dIn []*tensor.Dense, dOut, _ *tensor.Dense, in []*tensor.Dense) error {
	s := in[1].Shape()
	if dOut.Dtype() == tensor.Float64 {
		contextKernelBackward[float64](k, dIn, dOut, in, s)
	} else {
		contextKernelBackward[float32](k, dIn, dOut, in, s)
	}
	return nil
}

func contextKernelBackward[F Float](k contextKernel, dIn []*tensor.Dense, dOut *tensor.Dense, in []*tensor.Dense, s tensor.Shape) {
	dValues, add := data[F](dIn[1]), false
	if k.sink != nil {
		dValues, add = k.sink.dmem.([]F), true
		clear(data[F](dIn[2]))
	}
	contextBackward(data[F](dIn[0]), dValues, data[F](dOut), data[F](in[0]), data[F](in[1]), s[0], k.heads, s[1], s[2], add)
}

// contextForward computes ctx (B, d) from alpha (B, h, T) and values
// (B, T, d), spreading rows over goroutines when parallel is set; the
// serial path allocates nothing.
func contextForward[F Float](ctx, alpha, values []F, B, heads, T, d int, parallel bool) {
	if !parallel {
		contextRows(ctx, alpha, values, heads, T, d, 0, B)
		return
	}
	models.ParallelFor(B, 4, func(lo, hi int) { contextRows(ctx, alpha, values, heads, T, d, lo, hi) })
}

// contextBroadcast is contextForward with one head for B rows that all
// read one memory (T, D) (Keys.Broadcast): c[b] = Σ_t α[b,t]·V[t]. It
// walks the positions outermost, so each memory row is read once for
// every batch row while it is in cache, and adds into each c[b] in the
// order contextRows does, so the contexts are the same floats.
func contextBroadcast[F Float](ctx, alpha, memory []F, B, T, d int) {
	clear(ctx[:B*d])
	for t := range T {
		v := memory[t*d : (t+1)*d]
		for b := range B {
			if w := alpha[b*T+t]; w != 0 {
				axpy(w, v, ctx[b*d:(b+1)*d])
			}
		}
	}
}

func contextRows[F Float](ctx, alpha, values []F, heads, T, d, lo, hi int) {
	dk := d / heads
	for b := lo; b < hi; b++ {
		c := ctx[b*d : (b+1)*d]
		clear(c)
		for j := 0; j < heads; j++ {
			a := alpha[(b*heads+j)*T : (b*heads+j+1)*T]
			cj := c[j*dk : (j+1)*dk]
			for t, w := range a {
				if w != 0 {
					off := (b*T+t)*d + j*dk
					axpy(w, values[off:off+dk], cj)
				}
			}
		}
	}
}

// contextBackward: dα[b,j,t] = ⟨dc[b, head j], V[b,t, head j]⟩ and
// dV[b,t, head j] = α[b,j,t]·dc[b, head j], added to dValues when add is
// set. dAlpha may be nil.
func contextBackward[F Float](dAlpha, dValues, dCtx, alpha, values []F, B, heads, T, d int, add bool) {
	dk := d / heads
	models.ParallelFor(B, 4, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			if !add {
				clear(dValues[b*T*d : (b+1)*T*d])
			}
			for j := 0; j < heads; j++ {
				dc := dCtx[b*d+j*dk : b*d+(j+1)*dk]
				for t := 0; t < T; t++ {
					off := (b*T+t)*d + j*dk
					i := (b*heads+j)*T + t
					if dAlpha != nil {
						dAlpha[i] = dot(dc, values[off:off+dk])
					}
					if w := alpha[i]; w != 0 {
						axpy(w, dc, dValues[off:off+dk])
					}
				}
			}
		}
	})
}
