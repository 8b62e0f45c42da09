package caption

import (
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/tensor"
)

// TestKernelGradients checks every kernel of this package against central
// finite differences in float64, through the gorgonia adapter training
// uses.
func TestKernelGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const B, S, L, D = 3, 4, 5, 6
	random := func(shape ...int) *tensor.Dense { return modeltest.Random(rng, 1, shape...) }
	vec := func(vals ...float64) *tensor.Dense {
		return tensor.New(tensor.WithShape(len(vals)), tensor.WithBacking(vals))
	}
	// weights: rows of a softmax; oneHot: one sampled position per row.
	weights := func(rows int) *tensor.Dense {
		w := random(rows, L)
		d := w.Data().([]float64)
		for r := 0; r < rows; r++ {
			row := d[r*L : (r+1)*L]
			var sum float64
			for i := range row {
				row[i] = 0.2 + row[i]*row[i]
				sum += row[i]
			}
			for i := range row {
				row[i] /= sum
			}
		}
		return w
	}
	oneHot := func(rows int) *tensor.Dense {
		d := make([]float64, rows*L)
		for r := 0; r < rows; r++ {
			d[r*L+rng.IntN(L)] = 1
		}
		return tensor.New(tensor.WithShape(rows, L), tensor.WithBacking(d))
	}
	reshape := func(x *tensor.Dense, shape ...int) *tensor.Dense {
		if err := x.Reshape(shape...); err != nil {
			t.Fatal(err)
		}
		return x
	}
	for _, tc := range []struct {
		name   string
		kernel func() models.Kernel
		in     []*tensor.Dense
	}{
		{"tanh", func() models.Kernel { return tanhSumKernel{} }, []*tensor.Dense{random(B, D)}},
		{"tanh of a sum", func() models.Kernel { return tanhSumKernel{} }, []*tensor.Dense{random(B, D), random(B, D), random(B, D)}},
		{"sentinel", func() models.Kernel { return sentinelKernel{} }, []*tensor.Dense{random(B, D), random(B, 2*D)}},
		{"hard context", func() models.Kernel { return hardContextKernel{} },
			[]*tensor.Dense{weights(B), oneHot(B), vec(0, 1, 0.3), random(B, L, D)}},
		{"reinforce", func() models.Kernel { return reinforceKernel{entropy: 0.2} },
			[]*tensor.Dense{reshape(weights(B*S), B, S, L), reshape(oneHot(B*S), B, S, L),
				reshape(vec(0.1, 0.1, 0.1, 0, 0, 0, 0, 0, 0.3, 0.3, 0.3, 0.3), B, S), vec(-1.5, -2, -0.5), vec(-1.2)}},
		{"reinforce without entropy", func() models.Kernel { return reinforceKernel{} },
			[]*tensor.Dense{reshape(weights(B*S), B, S, L), reshape(oneHot(B*S), B, S, L),
				reshape(vec(1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0), B, S), vec(-1.5, -2, -0.5), vec(-1.2)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			worst := modeltest.CheckGradients(t, tc.kernel, tc.in, &modeltest.GradOptions{Tolerance: 1e-5})
			t.Logf("worst relative error %.2g", worst)
		})
	}
}

// TestReinforceSkipsWeightlessSteps checks that a step of weight 0 (padding,
// or a caption that read the expectation) adds nothing and gets no gradient,
// even where its weights are 0 and its sample points there.
func TestReinforceSkipsWeightlessSteps(t *testing.T) {
	in := [][]float64{
		{0, 1, 0.5, 0.5}, // α (1, 2, 2)
		{1, 0, 1, 0},     // samples
		{0, 1},           // step weights
		{-1},             // reward
		{-3},             // baseline
	}
	d := make([]float64, 4)
	loss := reinforce(d, 1, in, 1, 2, 2, 0.1)
	if d[0] != 0 || d[1] != 0 {
		t.Errorf("weightless step got gradient %v", d[:2])
	}
	// Step 1: −(R − b)·log 0.5 − 0.1·log 2.
	want := -2*-0.6931471805599453 - 0.1*0.6931471805599453
	if diff := loss - want; diff > 1e-12 || diff < -1e-12 {
		t.Errorf("loss %v, want %v", loss, want)
	}
}
