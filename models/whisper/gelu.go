package whisper

import "github.com/attend-go/attend/attention"

// gelu applies GELU(x) = x·Φ(x) = x/2·(1 + erf(x/√2)) in place (PyTorch's
// exact nn.GELU, not the tanh approximation), written with the
// complementary error function so that neither side cancels:
//
//	GELU(x) = x/2·erfc(|x|/√2)         x < 0
//	GELU(x) = x/2·(2 − erfc(x/√2))     x ≥ 0
//
// With AVX2 and FMA, runs of eight go through the same formula in assembly
// (gelu_amd64.s).
func gelu(x []float32) {
	done := geluFast(x)
	for i, v := range x[done:] {
		x[done+i] = gelu32(v)
	}
}

// gelu32 is GELU of one value, the reference the assembly is tested
// against.
func gelu32(x float32) float32 {
	const rsqrt2 = 0.70710678118654752
	q := erfcAbs(x * rsqrt2)
	if x < 0 {
		return 0.5 * x * q
	}
	return 0.5 * x * (2 - q)
}

// erfcAbs is erfc(|z|) by Numerical Recipes' erfcc (Press et al.,
// "Numerical Recipes", 2nd ed., §6.2: Chebyshev-fitted, fractional error
// below 1.2e-7 everywhere), with one exponential:
//
//	t = 1/(1 + |z|/2),  erfc(|z|) ≈ t·exp(−z² − 1.26551223 + t·P(t)).
func erfcAbs(z float32) float32 {
	if z < 0 {
		z = -z
	}
	t := 1 / (1 + 0.5*z)
	p := -z*z - 1.26551223 + t*(1.00002368+t*(0.37409196+t*(0.09678418+
		t*(-0.18628806+t*(0.27886807+t*(-1.13520398+t*(1.48851587+
			t*(-0.82215223+t*0.17087277))))))))
	return t * attention.Exp32(p)
}
