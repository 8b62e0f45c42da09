package caption

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// sentinelKernel makes the visual sentinel of adaptive attention from the
// sentinel gate's pre-activation p (B, H) and the LSTM state [h | c]
// (B, 2H) before the step (Lu et al. 2017, eq. 9–10):
//
//	s = σ(p) ⊙ tanh(c)        (B, H)
//
// Its backward pass: ∂L/∂p = ∂L/∂s·tanh(c)·σ(1 − σ), ∂L/∂c =
// ∂L/∂s·σ·(1 − tanh²c), and zero for h.
type sentinelKernel struct{}

func (sentinelKernel) Name() string { return "caption.Sentinel" }

func (sentinelKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 2 || in[0].Dims() != 2 || !in[1].Eq(tensor.Shape{in[0][0], 2 * in[0][1]}) {
		return nil, fmt.Errorf("want gate pre-activation (B, H) and LSTM state (B, 2H); got %v", in)
	}
	return in[0].Clone(), nil
}

func (sentinelKernel) Differentiable(int) []bool { return []bool{true, true} }

func (sentinelKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	B, H := in[0].Shape()[0], in[0].Shape()[1]
	if is64(out) {
		sentinel(floats[float64](out), floats[float64](in[0]), floats[float64](in[1]), B, H)
	} else {
		sentinel(floats[float32](out), floats[float32](in[0]), floats[float32](in[1]), B, H)
	}
	return nil
}

func (sentinelKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	B, H := in[0].Shape()[0], in[0].Shape()[1]
	if is64(out) {
		sentinelBackward(floats[float64](dIn[0]), floats[float64](dIn[1]), floats[float64](dOut), floats[float64](in[0]), floats[float64](in[1]), B, H)
	} else {
		sentinelBackward(floats[float32](dIn[0]), floats[float32](dIn[1]), floats[float32](dOut), floats[float32](in[0]), floats[float32](in[1]), B, H)
	}
	return nil
}

// sentinel writes s (B, H) = σ(pre) ⊙ tanh(c), c the second half of each
// row of state (B, 2H). The eager face calls it too.
func sentinel[F models.Float](s, pre, state []F, B, H int) {
	for r := 0; r < B; r++ {
		c := state[r*2*H+H : (r+1)*2*H]
		for i, p := range pre[r*H : (r+1)*H] {
			s[r*H+i] = models.Sigmoid(p) * models.Tanh(c[i])
		}
	}
}

func sentinelBackward[F models.Float](dPre, dState, ds, pre, state []F, B, H int) {
	for r := 0; r < B; r++ {
		c := state[r*2*H+H : (r+1)*2*H]
		clear(dState[r*2*H : r*2*H+H])
		for i, p := range pre[r*H : (r+1)*H] {
			g, y, d := models.Sigmoid(p), models.Tanh(c[i]), ds[r*H+i]
			dPre[r*H+i] = d * y * g * (1 - g)
			dState[r*2*H+H+i] = d * g * (1 - y*y)
		}
	}
}
