package models

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Dropout is inverted dropout (Srivastava et al. 2014): in training each
// element is zeroed with probability P and the survivors are scaled by
// 1/(1−P), so that expectations match and inference needs no rescaling. Its
// eager face is therefore the identity: inference code simply skips it.
//
// A training graph is built once and run once per batch; every run draws
// a fresh mask from Rng, in the deterministic order of the graph's tape, so
// a seeded Rng replays the same masks. Each element keeps iff 32 random bits
// are ≥ P·2³², so P is resolved to 2⁻³². P and Rng are read at every run:
// setting P to 0 turns the node into a copy (for instance to compute a
// validation loss with a training graph), and the training loop may swap
// Rng (for instance per epoch) without rebuilding graphs.
type Dropout struct {
	P   float64    // drop probability in [0, 1)
	Rng *rand.Rand // mask source
}

// Apply adds dropout of x to x's graph.
func (d *Dropout) Apply(x *gorgonia.Node) (*gorgonia.Node, error) {
	if err := d.check(); err != nil {
		return nil, err
	}
	return Apply(&dropoutKernel{d: d}, x)
}

func (d *Dropout) check() error {
	if !(d.P >= 0 && d.P < 1) {
		return fmt.Errorf("models: dropout probability %v, want 0 ≤ P < 1", d.P)
	}
	if d.Rng == nil && d.P > 0 {
		return fmt.Errorf("models: dropout with P = %v has no Rng", d.P)
	}
	return nil
}

// dropoutKernel applies the Dropout's current mask; it keeps the mask
// (0 or 1/(1−P) per element; nil when P = 0) for Backward.
type dropoutKernel struct {
	d    *Dropout
	mask any // []float32 or []float64
}

func (*dropoutKernel) Name() string { return "Dropout" }

func (*dropoutKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 {
		return nil, fmt.Errorf("want one input; got %d", len(in))
	}
	return in[0].Clone(), nil
}

func (*dropoutKernel) Differentiable(int) []bool { return []bool{true} }

func (k *dropoutKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	if err := k.d.check(); err != nil {
		return err
	}
	if out.Dtype() == tensor.Float32 {
		dropoutForward[float32](k, floatsOf[float32](out), floatsOf[float32](in[0]))
	} else {
		dropoutForward[float64](k, floatsOf[float64](out), floatsOf[float64](in[0]))
	}
	return nil
}

func dropoutForward[F Float](k *dropoutKernel, y, x []F) {
	if k.d.P == 0 {
		k.mask = nil
		copy(y, x)
		return
	}
	mask, _ := k.mask.([]F)
	mask = growFloats(mask, len(x))
	k.mask = mask
	fillDropoutMask(mask, k.d.P, k.d.Rng)
	for i, v := range x {
		y[i] = v * mask[i]
	}
}

// fillDropoutMask sets each element to 0 with probability p and to
// 1/(1−p) otherwise, drawing 32 bits per element.
func fillDropoutMask[F Float](mask []F, p float64, rng *rand.Rand) {
	threshold := uint32(math.Ldexp(p, 32)) // p < 1, so no overflow
	keep := F(1 / (1 - p))
	var bits uint64
	for i := range mask {
		if i%2 == 0 {
			bits = rng.Uint64()
		} else {
			bits >>= 32
		}
		if uint32(bits) >= threshold {
			mask[i] = keep
		} else {
			mask[i] = 0
		}
	}
}

func (k *dropoutKernel) Backward(dIn []*tensor.Dense, dOut, _ *tensor.Dense, _ []*tensor.Dense) error {
	if dOut.Dtype() == tensor.Float32 {
		dropoutBackward[float32](k, floatsOf[float32](dIn[0]), floatsOf[float32](dOut))
	} else {
		dropoutBackward[float64](k, floatsOf[float64](dIn[0]), floatsOf[float64](dOut))
	}
	return nil
}

func dropoutBackward[F Float](k *dropoutKernel, dx, dy []F) {
	mask, ok := k.mask.([]F)
	if !ok {
		copy(dx, dy)
		return
	}
	for i, g := range dy {
		dx[i] = g * mask[i]
	}
}
