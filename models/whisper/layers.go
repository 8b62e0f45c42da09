package whisper

import "math"

// linear is a fully connected layer y = x·Wᵀ + b, with W stored as
// PyTorch's nn.Linear does (out, in) and b (out) or nil (the attention's
// key projection has none).
type linear struct {
	w       matrix    // (out, in)
	b       []float32 // (out) or nil
	in, out int
}

// forward writes y (rows, out) = x (rows, in)·Wᵀ + b (matrix.forwardRows).
func (l *linear) forward(y, x []float32, rows int, s *scratch) {
	l.w.forwardRows(y, x, rows, s)
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

// addTo adds b to a element by element.
func addTo(a, b []float32) {
	b = b[:len(a)]
	for i := range a {
		a[i] += b[i]
	}
}
