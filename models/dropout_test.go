package models_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/attend-go/attend/models"
	"github.com/attend-go/attend/models/modeltest"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

func TestDropoutGradients(t *testing.T) {
	for i, p := range []float64{0, 0.3, 0.9} {
		r := rand.New(rand.NewPCG(uint64(i), 18))
		x := modeltest.Random(r, 1, 3, 5)
		// A fresh kernel with the same seed draws the same mask, as the
		// finite differences need.
		newKernel := func() models.Kernel {
			return models.NewDropoutKernel(&models.Dropout{P: p, Rng: rand.New(rand.NewPCG(7, uint64(i)))})
		}
		checkGrad(t, newKernel, []*tensor.Dense{x})
	}
}

// dropoutGraph compiles y = dropout(x) once and returns a function that
// runs it and returns a copy of y.
func dropoutGraph(t *testing.T, d *models.Dropout, x *tensor.Dense) func() []float32 {
	g := gorgonia.NewGraph()
	xn := gorgonia.NodeFromAny(g, x, gorgonia.WithName("x"))
	y, err := d.Apply(xn)
	if err != nil {
		t.Fatal(err)
	}
	var yv gorgonia.Value
	gorgonia.Read(y, &yv)
	vm := gorgonia.NewTapeMachine(g)
	t.Cleanup(func() { vm.Close() })
	return func() []float32 {
		defer vm.Reset()
		if err := vm.RunAll(); err != nil {
			t.Fatal(err)
		}
		return slices.Clone(yv.Data().([]float32))
	}
}

func TestDropoutMask(t *testing.T) {
	const n, p = 20000, 0.25
	x := tensor.New(tensor.WithShape(n), tensor.WithBacking(slices.Repeat([]float32{2}, n)))
	d := &models.Dropout{P: p, Rng: rand.New(rand.NewPCG(1, 2))}
	run := dropoutGraph(t, d, x)
	first := run()
	zeros := 0
	for i, v := range first {
		switch v {
		case 0:
			zeros++
		case 2 / (1 - p):
		default:
			t.Fatalf("y[%d] = %v, want 0 or %v", i, v, 2/(1-p))
		}
	}
	if frac := float64(zeros) / n; math.Abs(frac-p) > 0.02 {
		t.Errorf("dropped fraction %.3f, want %.2f", frac, p)
	}
	if second := run(); slices.Equal(first, second) {
		t.Error("two runs of one graph drew the same mask")
	}
	d.Rng = rand.New(rand.NewPCG(1, 2))
	if replay := run(); !slices.Equal(first, replay) {
		t.Error("reseeding did not replay the first mask")
	}
	d.P = 0
	if off := run(); !slices.Equal(off, x.Data().([]float32)) {
		t.Error("P = 0 is not the identity")
	}
}

func TestDropoutRejectsBadSettings(t *testing.T) {
	cases := []struct {
		name string
		d    models.Dropout
	}{
		{"P = 1", models.Dropout{P: 1, Rng: rand.New(rand.NewPCG(1, 1))}},
		{"negative", models.Dropout{P: -0.1, Rng: rand.New(rand.NewPCG(1, 1))}},
		{"NaN", models.Dropout{P: math.NaN(), Rng: rand.New(rand.NewPCG(1, 1))}},
		{"no rng", models.Dropout{P: 0.5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := gorgonia.NewGraph()
			x := gorgonia.NewVector(g, tensor.Float32, gorgonia.WithShape(3), gorgonia.WithName("x"))
			if _, err := c.d.Apply(x); err == nil {
				t.Error("Apply accepted it")
			}
		})
	}
}
