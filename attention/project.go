package attention

import (
	"fmt"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

// projectKernel is the per-batch key projection Y = X·W (+ b): X (…, In)
// with any leading dimensions, W (In, Out), b (Out) when bias is set, and
// Y (…, Out). For a memory (B, T, D) it is one GEMM (B·T, D)×(D, A), run
// once per batch rather than once per decoder step.
type projectKernel struct {
	bias bool
}

func (k projectKernel) Name() string {
	if k.bias {
		return "attention.Project+b"
	}
	return "attention.Project"
}

func (k projectKernel) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	want := 2
	if k.bias {
		want = 3
	}
	if len(in) != want || in[0].Dims() < 1 || in[1].Dims() != 2 {
		return nil, fmt.Errorf("want X (…, In), W (In, Out)%s; got %v: %w", map[bool]string{true: ", b (Out)"}[k.bias], in, ErrShape)
	}
	x, w := in[0], in[1]
	if x[len(x)-1] != w[0] {
		return nil, fmt.Errorf("X %v and W %v: inner dimensions differ: %w", x, w, ErrShape)
	}
	if k.bias && (in[2].Dims() != 1 || in[2][0] != w[1]) {
		return nil, fmt.Errorf("bias %v, want (%d): %w", in[2], w[1], ErrShape)
	}
	out := x.Clone()
	out[len(out)-1] = w[1]
	return out, nil
}

func (k projectKernel) Differentiable(n int) []bool {
	d := make([]bool, n)
	for i := range d {
		d[i] = true
	}
	return d
}

func (k projectKernel) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	n, nIn, nOut := k.dims(in)
	if out.Dtype() == tensor.Float64 {
		projectForward(data[float64](out), datas[float64](in), n, nIn, nOut)
	} else {
		projectForward(data[float32](out), datas[float32](in), n, nIn, nOut)
	}
	return nil
}

func (k projectKernel) Backward(dIn []*tensor.Dense, dOut, _ *tensor.Dense, in []*tensor.Dense) error {
	n, nIn, nOut := k.dims(in)
	if dOut.Dtype() == tensor.Float64 {
		projectBackward(datas[float64](dIn), data[float64](dOut), datas[float64](in), n, nIn, nOut)
	} else {
		projectBackward(datas[float32](dIn), data[float32](dOut), datas[float32](in), n, nIn, nOut)
	}
	return nil
}

// dims returns the rows N (the product of X's leading dimensions), In and Out.
func (projectKernel) dims(in []*tensor.Dense) (n, nIn, nOut int) {
	w := in[1].Shape()
	return in[0].Shape().TotalSize() / w[0], w[0], w[1]
}

// projectForward computes y (N, Out) = x (N, In)·w (In, Out) + b.
func projectForward[F Float](y []F, in [][]F, n, nIn, nOut int) {
	x, w := in[0], in[1]
	models.MatMul(n, nOut, nIn, x, w, y)
	if len(in) > 2 {
		b := in[2]
		for r := 0; r < n; r++ {
			axpy(1, b, y[r*nOut:(r+1)*nOut])
		}
	}
}

// projectBackward: dx = dy·Wᵀ, dW = xᵀ·dy, db = Σ_rows dy.
func projectBackward[F Float](dIn [][]F, dy []F, in [][]F, n, nIn, nOut int) {
	x, w := in[0], in[1]
	models.Gemm(false, true, n, nIn, nOut, 1, dy, nOut, w, nOut, 0, dIn[0], nIn)
	models.Gemm(true, false, nIn, nOut, n, 1, x, nIn, dy, nOut, 0, dIn[1], nOut)
	if len(in) > 2 {
		db := dIn[2]
		clear(db)
		for r := 0; r < n; r++ {
			axpy(1, dy[r*nOut:(r+1)*nOut], db)
		}
	}
}
