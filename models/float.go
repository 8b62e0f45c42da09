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

// fastTanh32 is Eigen's rational (13/6) approximation of tanh for float32,
// clamped where float32 tanh rounds to ±1.
func fastTanh32(x float32) float32 {
	const clamp = 7.90531110763549805
	if x > clamp {
		x = clamp
	} else if x < -clamp {
		x = -clamp
	}
	x2 := x * x
	p := x2*-2.76076847742355e-16 + 2.00018790482477e-13
	p = x2*p + -8.60467152213735e-11
	p = x2*p + 5.12229709037114e-08
	p = x2*p + 1.48572235717979e-05
	p = x2*p + 6.37261928875436e-04
	p = x2*p + 4.89352455891786e-03
	p = x * p
	q := x2*1.19825839466702e-06 + 1.18534705686654e-04
	q = x2*q + 2.26843463243900e-03
	q = x2*q + 4.89352518554385e-03
	return p / q
}
