package attention

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/tensor"
)

// kernelInputs makes the float64 operands of the kernel tests.
type kernelInputs struct {
	r *rand.Rand
}

func (k kernelInputs) random(scale float64, shape ...int) *tensor.Dense {
	return modeltest.Random(k.r, scale, shape...)
}

// mask is the (B, T) mask of tLengths.
func (k kernelInputs) mask() *tensor.Dense {
	m, err := MaskTensor(tensor.Float64, tLengths, tT)
	if err != nil {
		panic(err)
	}
	return m
}

// weights returns attention-like rows (B, T): positive on the real
// positions, summing to 1, zero on padding.
func (k kernelInputs) weights() *tensor.Dense {
	w := make([]float64, tB*tT)
	for b, n := range tLengths {
		var sum float64
		for t := 0; t < n; t++ {
			w[b*tT+t] = math.Exp(k.r.NormFloat64())
			sum += w[b*tT+t]
		}
		for t := 0; t < n; t++ {
			w[b*tT+t] /= sum
		}
	}
	return dense(tensor.Float64, w, tB, tT)
}

// adaptiveWeights returns [α | β] rows (B, T+1): weights() and a
// sentinel weight in (0, 1), 0 for the all-padding row.
func (k kernelInputs) adaptiveWeights() *tensor.Dense {
	a := k.weights().Data().([]float64)
	w := make([]float64, tB*(tT+1))
	for b, n := range tLengths {
		copy(w[b*(tT+1):], a[b*tT:(b+1)*tT])
		if n > 0 {
			w[b*(tT+1)+tT] = 0.1 + 0.8*k.r.Float64()
		}
	}
	return dense(tensor.Float64, w, tB, tT+1)
}

// TestKernelGradients checks every kernel's backward pass against central
// differences through a gorgonia graph (modeltest.CheckGradients), for
// every differentiable input.
func TestKernelGradients(t *testing.T) {
	const nf, C, K = 2, 2, 3
	loc := &additiveSpec{filters: nf, width: K, channels: C, sharpen: 1.3}
	locWin := &additiveSpec{filters: nf, width: K, channels: 1, sharpen: 1, window: Window{Left: 1, Right: 1}}
	win := &additiveSpec{sharpen: 1, window: Window{Left: 1, Right: 2, Center: Peak}}
	plain := &additiveSpec{sharpen: 1}
	cases := []struct {
		name   string
		kernel func() models.Kernel
		inputs func(k kernelInputs) []*tensor.Dense
	}{
		{"Project+b", func() models.Kernel { return projectKernel{bias: true} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tT, tD), k.random(1, tD, tA), k.random(1, tA)}
		}},
		{"Project", func() models.Kernel { return projectKernel{} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB*tT, tD), k.random(1, tD, tA)}
		}},
		{"Context/h=1", func() models.Kernel { return contextKernel{heads: 1} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.weights(), k.random(1, tB, tT, tD)}
		}},
		{"Context/h=2", func() models.Kernel { return contextKernel{heads: 2} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, 2, tT), k.random(1, tB, tT, tD)}
		}},
		{"AdditiveScore", func() models.Kernel { return &additiveKernel{spec: plain} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tT, tA), k.random(1, tB, tH), k.random(1, tH, tA), k.random(1, tA), k.mask()}
		}},
		{"AdditiveScore/window", func() models.Kernel { return &additiveKernel{spec: win, prev: true} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tT, tA), k.random(1, tB, tH), k.random(1, tH, tA), k.random(1, tA), k.mask(), k.weights()}
		}},
		{"LocationScore/cumulative+sharpen", func() models.Kernel { return &additiveKernel{spec: loc, prev: true} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tT, tA), k.random(1, tB, tH), k.random(1, tH, tA), k.random(1, tA), k.mask(),
				k.weights(), k.random(1, tB, tT), k.random(1, nf, C, K), k.random(1, nf, tA)}
		}},
		{"LocationScore/window", func() models.Kernel { return &additiveKernel{spec: locWin, prev: true} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tT, tA), k.random(1, tB, tH), k.random(1, tH, tA), k.random(1, tA), k.mask(),
				k.weights(), k.random(1, nf, 1, K), k.random(1, nf, tA)}
		}},
		{"LocationScore/first-step", func() models.Kernel { return &additiveKernel{spec: loc} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tT, tA), k.random(1, tB, tH), k.random(1, tH, tA), k.random(1, tA), k.mask()}
		}},
		{"DotScore", func() models.Kernel { return dotKernel{heads: 1, scale: 1} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tT, tD), k.random(1, tB, tD), k.mask()}
		}},
		{"DotScore/general+scaled", func() models.Kernel { return dotKernel{heads: 1, scale: 0.5, proj: true} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tT, tD), k.random(1, tB, tH), k.mask(), k.random(1, tH, tD)}
		}},
		{"DotScore/h=2", func() models.Kernel { return dotKernel{heads: 2, scale: 0.7, proj: true, headAxis: true} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tT, tD), k.random(1, tB, tH), k.mask(), k.random(1, tH, tD)}
		}},
		{"LocalCenter", func() models.Kernel { return centerKernel{} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tH), k.random(1, tH, tA), k.random(1, tA), k.mask()}
		}},
		{"LocalScore", func() models.Kernel { return localKernel{halfWidth: 2} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tT, tD), k.random(1, tB, tH), k.random(1, tH, tD), dense(tensor.Float64, []float64{2.3, 1.6, 0}, tB), k.mask()}
		}},
		{"AdaptiveScore", func() models.Kernel {
			return &adaptiveScoreKernel{adaptiveDims: adaptiveDims{H: tH, S: 2, A: tA, D: tD}}
		}, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tT, tA), k.random(1, tB, tH+2), k.random(1, tH, tA), k.random(1, tA), k.random(1, tA), k.random(1, 2, tA), k.mask()}
		}},
		{"AdaptiveContext", func() models.Kernel {
			return &adaptiveContextKernel{adaptiveDims: adaptiveDims{H: tH, S: 2, A: tA, D: tD}}
		}, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.adaptiveWeights(), k.random(1, tB, tT, tD), k.random(1, tB, tH+2), k.random(1, 2, tD)}
		}},
		{"Gate", func() models.Kernel { return gateKernel{} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tD), k.random(1, tB, tH), k.random(1, tH), k.random(1, 1)}
		}},
		{"DoublyStochastic", func() models.Kernel { return penaltyKernel{lambda: 0.7} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tS, tT), dense(tensor.Float64, []float64{1, 1, 1, 1, 1, 0, 0, 0, 0}, tB, tS)}
		}},
		{"DoublyStochastic/locations", func() models.Kernel { return penaltyKernel{lambda: 0.7, locations: true} }, func(k kernelInputs) []*tensor.Dense {
			return []*tensor.Dense{k.random(1, tB, tS, tT), dense(tensor.Float64, []float64{1, 1, 1, 1, 1, 0, 0, 0, 0}, tB, tS), k.mask()}
		}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.inputs(kernelInputs{r: rand.New(rand.NewPCG(uint64(40+i), 1))})
			worst := modeltest.CheckGradients(t, tc.kernel, in, nil)
			t.Logf("worst relative error %.2g", worst)
		})
	}
}
