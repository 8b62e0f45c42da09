package models

import (
	"math"
	"unsafe"
)

// Float is the element type of every tensor the core computes on: float32
// for training and inference, float64 for finite-difference gradient checks.
//
// Generic kernels are written once over Float. Go stencils float32 and
// float64 separately (they have different GC shapes), so size tests such as
// isFloat32 fold to constants and cost nothing in the inner loops.
type Float interface {
	float32 | float64
}

// isFloat32 reports whether F is 32 bits wide; a constant per instantiation.
func isFloat32[F Float]() bool {
	var x F
	return unsafe.Sizeof(x) == 4
}

// asFloat32 views s as []float32 (nil stays nil); only for F = float32,
// where it converts without the allocation of going through any.
func asFloat32[F Float](s []F) []float32 {
	if s == nil {
		return nil
	}
	return unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// Tanh is tanh(x): a rational approximation for float32 (max abs error about
// 1e-7, several times faster than math.Tanh) and math.Tanh for float64.
func Tanh[F Float](x F) F {
	if isFloat32[F]() {
		return F(fastTanh32(float32(x)))
	}
	return F(math.Tanh(float64(x)))
}

// Sigmoid is the logistic function σ(x) = 1/(1+e^{−x}), computed as
// (1 + tanh(x/2))/2 so that it shares Tanh's speed and never overflows.
func Sigmoid[F Float](x F) F {
	return 0.5 + 0.5*Tanh(x/2)
}

// Exp is e^x; float32 goes through float64 math.Exp (exact to float32
// rounding, and fast enough: softmax is not where the time goes).
func Exp[F Float](x F) F {
	return F(math.Exp(float64(x)))
}

// Log is the natural logarithm.
func Log[F Float](x F) F {
	return F(math.Log(float64(x)))
}

// Eigen's rational (13/6) approximation of tanh for float32: tanh(x) ≈
// x·p(x²)/q(x²) on [−tanhClamp, tanhClamp], where float32 tanh rounds to ±1
// outside; max abs error about 1e-7.
const (
	tanhClamp = 7.90531110763549805
	tanhP13   = -2.76076847742355e-16
	tanhP11   = 2.00018790482477e-13
	tanhP9    = -8.60467152213735e-11
	tanhP7    = 5.12229709037114e-08
	tanhP5    = 1.48572235717979e-05
	tanhP3    = 6.37261928875436e-04
	tanhP1    = 4.89352455891786e-03
	tanhQ6    = 1.19825839466702e-06
	tanhQ4    = 1.18534705686654e-04
	tanhQ2    = 2.26843463243900e-03
	tanhQ0    = 4.89352518554385e-03
)

func fastTanh32(x float32) float32 {
	if x > tanhClamp { // branches: the min/max builtins' NaN handling costs more
		x = tanhClamp
	} else if x < -tanhClamp {
		x = -tanhClamp
	}
	x2 := x * x
	p := ((((((tanhP13*x2+tanhP11)*x2+tanhP9)*x2+tanhP7)*x2+tanhP5)*x2+tanhP3)*x2 + tanhP1) * x
	q := ((tanhQ6*x2+tanhQ4)*x2+tanhQ2)*x2 + tanhQ0
	return p / q
}

// TanhAdd writes dst[i] = tanh(a[i] + b[i]) for i < len(dst): the inner
// loop of every additive attention score. In float32 it runs the
// approximation of Tanh eight lanes at a time with AVX2/FMA where the CPU
// has them (tanh_amd64.s) and as an inlined Go loop otherwise (a call per
// element costs more than the arithmetic); float64 is exact.
func TanhAdd[F Float](dst, a, b []F) {
	switch d := any(dst).(type) {
	case []float32:
		tanhAdd32(d, any(a).([]float32), any(b).([]float32))
	case []float64:
		a, b := any(a).([]float64)[:len(d)], any(b).([]float64)[:len(d)]
		for i := range d {
			d[i] = math.Tanh(a[i] + b[i])
		}
	}
}

func tanhAdd32(dst, a, b []float32) {
	a, b = a[:len(dst)], b[:len(dst)]
	for i := tanhAddFast(dst, a, b); i < len(dst); i++ {
		x := a[i] + b[i]
		if x > tanhClamp {
			x = tanhClamp
		} else if x < -tanhClamp {
			x = -tanhClamp
		}
		x2 := x * x
		p := ((((((tanhP13*x2+tanhP11)*x2+tanhP9)*x2+tanhP7)*x2+tanhP5)*x2+tanhP3)*x2 + tanhP1) * x
		q := ((tanhQ6*x2+tanhQ4)*x2+tanhQ2)*x2 + tanhQ0
		dst[i] = p / q
	}
}
