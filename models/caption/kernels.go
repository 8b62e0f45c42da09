package caption

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// The fused kernels of the caption graph that the core packages do not
// provide. Each is checked against finite differences in float64
// (kernels_test.go).

// floats returns a dense tensor's backing slice.
func floats[F models.Float](t *tensor.Dense) []F { return t.Data().([]F) }

// is64 reports whether a kernel runs in float64 (gradient checks).
func is64(t *tensor.Dense) bool { return t.Dtype() == tensor.Float64 }

// meanKernel averages the annotations of each image: a (B, L, D) → ā (B, D),
// the input of the initial-state MLPs (Xu et al. §3.1.2). The annotations
// are inputs (the image encoder is not trained through the decoder), so
// nothing is differentiated.
type meanKernel struct{}

func (meanKernel) Name() string { return "caption.MeanRegions" }

func (meanKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 1 || in[0].Dims() != 3 {
		return nil, fmt.Errorf("want annotations (B, L, D); got %v", in)
	}
	return tensor.Shape{in[0][0], in[0][2]}, nil
}

func (meanKernel) Differentiable(int) []bool { return []bool{false} }

func (meanKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	s := in[0].Shape()
	if is64(out) {
		meanRegions(floats[float64](out), floats[float64](in[0]), s[0], s[1], s[2])
	} else {
		meanRegions(floats[float32](out), floats[float32](in[0]), s[0], s[1], s[2])
	}
	return nil
}

func (meanKernel) Backward([]*tensor.Dense, *tensor.Dense, *tensor.Dense, []*tensor.Dense) error {
	return nil // no differentiable input
}

// meanRegions writes the mean over L of a (B, L, D) into dst (B, D). The
// eager face calls it too, so both sum in the same order.
func meanRegions[F models.Float](dst, a []F, B, L, D int) {
	inv := 1 / F(L)
	for b := 0; b < B; b++ {
		row := dst[b*D : (b+1)*D]
		clear(row)
		for l := 0; l < L; l++ {
			for d, x := range a[(b*L+l)*D : (b*L+l+1)*D] {
				row[d] += x
			}
		}
		for d := range row {
			row[d] *= inv
		}
	}
}

// tanhSumKernel is y = tanh(x₁ + … + x_n) over inputs of one shape: the
// initial states (n = 1) and the deep output layer (n = 3).
type tanhSumKernel struct{}

func (tanhSumKernel) Name() string { return "caption.TanhSum" }

func (tanhSumKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) == 0 {
		return nil, fmt.Errorf("want at least one input")
	}
	for _, s := range in[1:] {
		if !s.Eq(in[0]) {
			return nil, fmt.Errorf("inputs %v differ in shape", in)
		}
	}
	return in[0].Clone(), nil
}

func (tanhSumKernel) Differentiable(n int) []bool {
	d := make([]bool, n)
	for i := range d {
		d[i] = true
	}
	return d
}

func (tanhSumKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	if is64(out) {
		tanhSum(floats[float64](out), inputs[float64](in))
	} else {
		tanhSum(floats[float32](out), inputs[float32](in))
	}
	return nil
}

func (tanhSumKernel) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, _ []*tensor.Dense) error {
	if is64(out) {
		tanhBackward(inputs[float64](dIn), floats[float64](dOut), floats[float64](out))
	} else {
		tanhBackward(inputs[float32](dIn), floats[float32](dOut), floats[float32](out))
	}
	return nil
}

// inputs returns the backing slices of ts (nil for a nil tensor).
func inputs[F models.Float](ts []*tensor.Dense) [][]F {
	out := make([][]F, len(ts))
	for i, t := range ts {
		if t != nil {
			out[i] = floats[F](t)
		}
	}
	return out
}

// tanhSum writes tanh(Σ xs) into y, adding left to right as the eager face
// does: y = tanh((x₁ + … + x_{n−1}) + x_n). It may use y as scratch.
func tanhSum[F models.Float](y []F, xs [][]F) {
	switch len(xs) {
	case 1:
		for i, x := range xs[0] {
			y[i] = models.Tanh(x)
		}
	default:
		copy(y, xs[0])
		for _, x := range xs[1 : len(xs)-1] {
			for i, v := range x {
				y[i] += v
			}
		}
		models.TanhAdd(y, y, xs[len(xs)-1])
	}
}

// tanhBackward writes ∂L/∂x_i = dy·(1 − y²) into every non-nil dxs[i].
func tanhBackward[F models.Float](dxs [][]F, dy, y []F) {
	var first []F
	for _, dx := range dxs {
		if dx == nil {
			continue
		}
		if first != nil {
			copy(dx, first)
			continue
		}
		for i, g := range dy {
			dx[i] = g * (1 - y[i]*y[i])
		}
		first = dx
	}
}
