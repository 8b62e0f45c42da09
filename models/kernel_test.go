package models_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// tanhAffine is a small test kernel: y = tanh(x·W + b) with x (B,I), W (I,O),
// b (O). It exercises a generic forward, a backward with a GEMM per input,
// and state kept between the passes.
type tanhAffine struct{}

func (tanhAffine) Name() string { return "TanhAffine" }

func (tanhAffine) OutputShape(in []tensor.Shape) (tensor.Shape, error) {
	if len(in) != 3 || in[0].Dims() != 2 || in[1].Dims() != 2 || in[2].Dims() != 1 ||
		in[0][1] != in[1][0] || in[1][1] != in[2][0] {
		return nil, fmt.Errorf("want x (B,I), W (I,O), b (O); got %v", in)
	}
	return tensor.Shape{in[0][0], in[1][1]}, nil
}

func (tanhAffine) Differentiable(int) []bool { return []bool{true, true, true} }

func (tanhAffine) Forward(out *tensor.Dense, in []*tensor.Dense) error {
	switch y := out.Data().(type) {
	case []float32:
		affineForward(y, in[0].Data().([]float32), in[1].Data().([]float32), in[2].Data().([]float32), in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1])
	case []float64:
		affineForward(y, in[0].Data().([]float64), in[1].Data().([]float64), in[2].Data().([]float64), in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1])
	}
	return nil
}

func affineForward[F models.Float](y, x, w, b []F, B, I, O int) {
	models.MatMul(B, O, I, x, w, y)
	for r := 0; r < B; r++ {
		for o := 0; o < O; o++ {
			y[r*O+o] = models.Tanh(y[r*O+o] + b[o])
		}
	}
}

func (tanhAffine) Backward(dIn []*tensor.Dense, dOut, out *tensor.Dense, in []*tensor.Dense) error {
	B, I, O := in[0].Shape()[0], in[0].Shape()[1], in[1].Shape()[1]
	x, w, y, dy := in[0].Data().([]float64), in[1].Data().([]float64), out.Data().([]float64), dOut.Data().([]float64)
	dz := make([]float64, len(y))
	for i := range dz {
		dz[i] = dy[i] * (1 - y[i]*y[i])
	}
	models.Gemm(false, true, B, I, O, 1, dz, O, w, O, 0, dIn[0].Data().([]float64), I) // dx = dz·Wᵀ
	models.Gemm(true, false, I, O, B, 1, x, I, dz, O, 0, dIn[1].Data().([]float64), O) // dW = xᵀ·dz
	db := dIn[2].Data().([]float64)
	clear(db)
	for r := 0; r < B; r++ {
		for o := 0; o < O; o++ {
			db[o] += dz[r*O+o]
		}
	}
	return nil
}

func affineInputs(seed uint64) []*tensor.Dense {
	r := rand.New(rand.NewPCG(seed, 1))
	return []*tensor.Dense{modeltest.Random(r, 1, 3, 4), modeltest.Random(r, 0.5, 4, 5), modeltest.Random(r, 0.5, 5)}
}

func TestApplyGradientCheck(t *testing.T) {
	worst := modeltest.CheckGradients(t, func() models.Kernel { return tanhAffine{} }, affineInputs(1), nil)
	t.Logf("worst relative error %.2g", worst)
}

func TestApplyGraphMatchesEager(t *testing.T) {
	in := affineInputs(2)
	want, err := modeltest.Eager(tanhAffine{}, in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := modeltest.GraphForward(tanhAffine{}, in)
	if err != nil {
		t.Fatal(err)
	}
	if d := modeltest.MaxAbsDiff(got.Data().([]float64), want.Data().([]float64)); d > 1e-12 {
		t.Errorf("graph and eager forward differ by %g", d)
	}
}

// A compiled graph is run many times (one per batch); gradients must be
// recomputed each run, and chained fused nodes must not clobber each other
// through register reuse.
func TestApplyRepeatedRunsAndChaining(t *testing.T) {
	in := affineInputs(3)
	g := gorgonia.NewGraph()
	x := gorgonia.NodeFromAny(g, in[0], gorgonia.WithName("x"))
	w1 := gorgonia.NodeFromAny(g, in[1], gorgonia.WithName("w1"))
	b1 := gorgonia.NodeFromAny(g, in[2], gorgonia.WithName("b1"))
	r := rand.New(rand.NewPCG(4, 1))
	w2 := gorgonia.NodeFromAny(g, modeltest.Random(r, 0.5, 5, 5), gorgonia.WithName("w2"))
	b2 := gorgonia.NodeFromAny(g, modeltest.Random(r, 0.5, 5), gorgonia.WithName("b2"))
	h, err := models.Apply(tanhAffine{}, x, w1, b1)
	if err != nil {
		t.Fatal(err)
	}
	y, err := models.Apply(tanhAffine{}, h, w2, b2)
	if err != nil {
		t.Fatal(err)
	}
	loss := gorgonia.Must(gorgonia.Sum(y))
	if _, err := gorgonia.Grad(loss, w1, w2); err != nil {
		t.Fatal(err)
	}
	var lossVal gorgonia.Value
	gorgonia.Read(loss, &lossVal)
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(w1, w2))
	defer vm.Close()
	var first float64
	var firstGrad []float64
	for run := 0; run < 3; run++ {
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		gv, _ := w1.Grad()
		grad := append([]float64(nil), gv.Data().([]float64)...)
		l := lossVal.Data().(float64)
		if run == 0 {
			first, firstGrad = l, grad
		} else {
			if l != first {
				t.Errorf("run %d: loss %v, first run %v", run, l, first)
			}
			// Gorgonia accumulates into bound dual values until a solver
			// zeroes them: run k holds (k+1)× the first gradient.
			for i := range grad {
				if d := grad[i] - float64(run+1)*firstGrad[i]; d > 1e-12 || d < -1e-12 {
					t.Fatalf("run %d: dW1[%d] = %v, want %d×%v", run, i, grad[i], run+1, firstGrad[i])
				}
			}
		}
		vm.Reset()
	}
}
