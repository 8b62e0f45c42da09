package models_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/attend-go/attend/models"
	"gorgonia.org/tensor"
)

func newQuadratic(t *testing.T) (*models.Params, *models.Param) {
	t.Helper()
	ps := models.NewParams(tensor.Float64, rand.New(rand.NewPCG(1, 2)))
	return ps, ps.New("w", models.Const(3), 4)
}

// setGrad writes ∂/∂w of Σ (w − target)².
func setGrad(p *models.Param, target float64) {
	w, g := p.Value.Data().([]float64), p.Grad.Data().([]float64)
	for i := range w {
		g[i] = 2 * (w[i] - target)
	}
}

func TestAdamFirstStepIsLearningRate(t *testing.T) {
	// With bias correction the first update is lr·g/|g| whatever g's scale.
	for _, scale := range []float64{1e-4, 1, 1e3} {
		ps, p := newQuadratic(t)
		opt := models.NewAdam(ps, &models.AdamOptions{LR: 0.01, ClipNorm: math.Inf(1)})
		g := p.Grad.Data().([]float64)
		for i := range g {
			g[i] = scale
		}
		if _, err := opt.Step(); err != nil {
			t.Fatal(err)
		}
		if got := p.Value.Data().([]float64)[0]; math.Abs(got-(3-0.01)) > 1e-6 {
			t.Errorf("gradient scale %g: w = %v after one step, want %v", scale, got, 3-0.01)
		}
		for _, v := range g {
			if v != 0 {
				t.Fatal("Step did not zero the gradients")
			}
		}
	}
}

func TestAdamConvergesAndClips(t *testing.T) {
	ps, p := newQuadratic(t)
	opt := models.NewAdam(ps, &models.AdamOptions{LR: 0.1, ClipNorm: 1, Schedule: models.WarmupInvSqrt(10)})
	var firstNorm float64
	for i := 0; i < 500; i++ {
		setGrad(p, -1)
		n, err := opt.Step()
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			firstNorm = n
		}
	}
	if want := 2 * 4 * math.Sqrt(4); math.Abs(firstNorm-want) > 1e-9 {
		t.Errorf("first gradient norm %v, want %v (reported before clipping)", firstNorm, want)
	}
	for i, v := range p.Value.Data().([]float64) {
		if math.Abs(v+1) > 1e-2 {
			t.Errorf("w[%d] = %v, want ≈ -1", i, v)
		}
	}
	if opt.Steps() != 500 {
		t.Errorf("Steps() = %d", opt.Steps())
	}
}

func TestAdamSkipsNonFiniteGradients(t *testing.T) {
	ps, p := newQuadratic(t)
	opt := models.NewAdam(ps, nil)
	p.Grad.Data().([]float64)[1] = math.NaN()
	if _, err := opt.Step(); err == nil {
		t.Fatal("Step with a NaN gradient returned no error")
	}
	for i, v := range p.Value.Data().([]float64) {
		if v != 3 {
			t.Errorf("w[%d] = %v changed by a skipped step", i, v)
		}
	}
	if opt.Steps() != 0 {
		t.Errorf("Steps() = %d after a skipped step", opt.Steps())
	}
}

func TestSchedules(t *testing.T) {
	tests := []struct {
		name string
		s    models.Schedule
		step int
		want float64
	}{
		{"constant", models.Constant, 99, 1},
		{"invsqrt warmup", models.WarmupInvSqrt(100), 50, 0.5},
		{"invsqrt peak", models.WarmupInvSqrt(100), 100, 1},
		{"invsqrt decay", models.WarmupInvSqrt(100), 400, 0.5},
		{"cosine warmup", models.WarmupCosine(10, 110, 0.1), 5, 0.5},
		{"cosine middle", models.WarmupCosine(10, 110, 0.1), 60, 0.55},
		{"cosine end", models.WarmupCosine(10, 110, 0.1), 500, 0.1},
	}
	for _, tc := range tests {
		if got := tc.s(tc.step); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: s(%d) = %v, want %v", tc.name, tc.step, got, tc.want)
		}
	}
}
