package models

import (
	"fmt"
	"math"
)

// AdamOptions configures Adam. The zero value means the defaults noted.
type AdamOptions struct {
	LR          float64  // peak learning rate; 0 means 1e-3
	Beta1       float64  // first-moment decay; 0 means 0.9
	Beta2       float64  // second-moment decay; 0 means 0.999
	Eps         float64  // denominator floor; 0 means 1e-8
	WeightDecay float64  // decoupled weight decay (AdamW, Loshchilov & Hutter 2019); 0 means none
	ClipNorm    float64  // clip the global gradient L2 norm to this; 0 means 5, +Inf means never
	Schedule    Schedule // learning-rate multiplier per step; nil means constant 1
}

func (o AdamOptions) withDefaults() AdamOptions {
	if o.LR == 0 {
		o.LR = 1e-3
	}
	if o.Beta1 == 0 {
		o.Beta1 = 0.9
	}
	if o.Beta2 == 0 {
		o.Beta2 = 0.999
	}
	if o.Eps == 0 {
		o.Eps = 1e-8
	}
	if o.ClipNorm == 0 {
		o.ClipNorm = 5
	}
	if o.Schedule == nil {
		o.Schedule = Constant
	}
	return o
}

// Adam is the Adam optimizer with bias correction (Kingma & Ba 2015,
// Algorithm 1), global gradient-norm clipping (Pascanu et al. 2013) and a
// learning-rate schedule. At step t, with g the clipped gradient:
//
//	m ← β₁m + (1−β₁)g,  v ← β₂v + (1−β₂)g²
//	θ ← θ − lr·s(t)·( m/(1−β₁ᵗ) / (√(v/(1−β₂ᵗ)) + ε) + λθ )
type Adam struct {
	opts AdamOptions
	ps   *Params
	m, v []*Moment
	t    int
}

// Moment is one parameter's optimizer state, kept in float64 for float64
// stores and float32 otherwise.
type Moment struct {
	F32 []float32
	F64 []float64
}

// NewAdam returns an optimizer over every parameter in ps.
func NewAdam(ps *Params, opts *AdamOptions) *Adam {
	var o AdamOptions
	if opts != nil {
		o = *opts
	}
	a := &Adam{opts: o.withDefaults(), ps: ps}
	for _, p := range ps.All() {
		a.m = append(a.m, newMoment(p))
		a.v = append(a.v, newMoment(p))
	}
	return a
}

func newMoment(p *Param) *Moment {
	if _, ok := p.Value.Data().([]float64); ok {
		return &Moment{F64: make([]float64, p.Size())}
	}
	return &Moment{F32: make([]float32, p.Size())}
}

// Params returns the parameters the optimizer updates.
func (a *Adam) Params() *Params { return a.ps }

// Steps returns how many updates have been applied.
func (a *Adam) Steps() int { return a.t }

// LR returns the learning rate the next step will use.
func (a *Adam) LR() float64 { return a.opts.LR * a.opts.Schedule(a.t+1) }

// State returns the step count and the moment buffers, in parameter order,
// for checkpoints. The buffers are the optimizer's own.
func (a *Adam) State() (step int, m, v []*Moment) { return a.t, a.m, a.v }

// SetState restores what State returned, e.g. when resuming training.
func (a *Adam) SetState(step int, m, v []*Moment) error {
	if len(m) != len(a.m) || len(v) != len(a.v) {
		return fmt.Errorf("models: Adam.SetState: %d/%d moments for %d parameters", len(m), len(v), len(a.m))
	}
	for i, p := range a.ps.All() {
		if m[i].len() != p.Size() || v[i].len() != p.Size() {
			return fmt.Errorf("models: Adam.SetState: moment of %s has %d values, want %d", p.Name, m[i].len(), p.Size())
		}
	}
	a.t, a.m, a.v = step, m, v
	return nil
}

func (m *Moment) len() int { return len(m.F32) + len(m.F64) }

// Step applies one update from the gradients accumulated in the Params,
// then zeroes them. It returns the global gradient norm before clipping; a
// non-finite norm skips the update (the gradients are still cleared) and is
// reported as an error, so one bad batch cannot poison the weights.
func (a *Adam) Step() (gradNorm float64, err error) {
	var sq float64
	for _, p := range a.ps.All() {
		switch g := p.Grad.Data().(type) {
		case []float32:
			sq += sumSquares(g)
		case []float64:
			sq += sumSquares(g)
		}
	}
	norm := math.Sqrt(sq)
	if math.IsNaN(norm) || math.IsInf(norm, 0) {
		a.ps.ZeroGrads()
		return norm, fmt.Errorf("models: gradient norm is %v; update skipped", norm)
	}
	scale := 1.0
	if norm > a.opts.ClipNorm {
		scale = a.opts.ClipNorm / norm
	}
	a.t++
	o := a.opts
	lr := o.LR * o.Schedule(a.t)
	c1 := 1 - math.Pow(o.Beta1, float64(a.t))
	c2 := 1 - math.Pow(o.Beta2, float64(a.t))
	for i, p := range a.ps.All() {
		switch w := p.Value.Data().(type) {
		case []float32:
			adamUpdate(w, p.Grad.Data().([]float32), a.m[i].F32, a.v[i].F32, o, lr, scale, c1, c2)
		case []float64:
			adamUpdate(w, p.Grad.Data().([]float64), a.m[i].F64, a.v[i].F64, o, lr, scale, c1, c2)
		}
		p.Grad.Zero()
	}
	return norm, nil
}

func sumSquares[F Float](x []F) float64 {
	var s float64
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	return s
}

func adamUpdate[F Float](w, g, m, v []F, o AdamOptions, lr, scale, c1, c2 float64) {
	b1, b2 := F(o.Beta1), F(o.Beta2)
	sc, eps, wd := F(scale), F(o.Eps), F(o.WeightDecay)
	stepM := F(lr / c1)
	invC2 := F(1 / c2)
	lrF := F(lr)
	ParallelFor(len(w), 1<<15, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			gi := g[i] * sc
			m[i] = b1*m[i] + (1-b1)*gi
			v[i] = b2*v[i] + (1-b2)*gi*gi
			w[i] -= stepM*m[i]/(F(math.Sqrt(float64(v[i]*invC2)))+eps) + lrF*wd*w[i]
		}
	})
}
