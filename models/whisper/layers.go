package whisper

import (
	"math"

	"github.com/attend-go/attend/attention"
	"github.com/attend-go/attend/internal/sgemm"
)

// linear is a fully connected layer y = x·Wᵀ + b, with W stored as
// PyTorch's nn.Linear does (out, in) and b (out) or nil (the attention's
// key projection has none).
type linear struct {
	w       []float32 // (out, in)
	b       []float32 // (out) or nil
	in, out int
}

// forward writes y (rows, out) = x (rows, in)·Wᵀ + b.
func (l *linear) forward(y, x []float32, rows int) {
	sgemm.Gemm(false, true, rows, l.out, l.in, 1, x, l.in, l.w, l.in, 0, y, l.out)
	if l.b != nil {
		for r := range rows {
			addTo(y[r*l.out:(r+1)*l.out], l.b)
		}
	}
}

// layerNorm is nn.LayerNorm(width) with ε = 1e-5:
// y = (x − mean)/√(var + ε)·γ + β over each row.
type layerNorm struct {
	gamma, beta []float32 // (width)
}

// forward normalizes each row of x (rows, width) into y.
func (n *layerNorm) forward(y, x []float32, rows int) {
	w := len(n.gamma)
	for r := range rows {
		xr, yr := x[r*w:(r+1)*w], y[r*w:(r+1)*w]
		var mean float64
		for _, v := range xr {
			mean += float64(v)
		}
		mean /= float64(w)
		var variance float64
		for _, v := range xr {
			d := float64(v) - mean
			variance += d * d
		}
		variance /= float64(w)
		inv := 1 / math.Sqrt(variance+1e-5)
		for i, v := range xr {
			yr[i] = float32((float64(v)-mean)*inv)*n.gamma[i] + n.beta[i]
		}
	}
}

// gelu applies GELU(x) = x·Φ(x) = x/2·(1 + erf(x/√2)) in place (PyTorch's
// exact nn.GELU, not the tanh approximation).
func gelu(x []float32) {
	for i, v := range x {
		x[i] = 0.5 * v * (1 + erf32(v*math.Sqrt2/2))
	}
}

// erf32 is erf(x) from Numerical Recipes' erfc approximation
// (Chebyshev-fitted, fractional error below 1.2e-7 everywhere), with one
// exponential.
func erf32(x float32) float32 {
	z := x
	if z < 0 {
		z = -z
	}
	t := 1 / (1 + 0.5*z)
	p := -z*z - 1.26551223 + t*(1.00002368+t*(0.37409196+t*(0.09678418+
		t*(-0.18628806+t*(0.27886807+t*(-1.13520398+t*(1.48851587+
			t*(-0.82215223+t*0.17087277))))))))
	r := 1 - t*attention.Exp32(p)
	if x < 0 {
		return -r
	}
	return r
}

// addTo adds b to a element by element.
func addTo(a, b []float32) {
	b = b[:len(a)]
	for i := range a {
		a[i] += b[i]
	}
}
