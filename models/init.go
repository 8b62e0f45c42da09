package models

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// An Init fills a new parameter's values (row-major, len = product of
// shape) from a seeded source. Randomness always comes from the rng passed
// in, so a model built twice from the same seed is identical.
type Init func(rng *rand.Rand, shape []int, dst []float64)

// fans returns the fan-in and fan-out of a weight: for a matrix (in, out)
// they are its dimensions; for higher ranks the trailing dimensions count as
// the receptive field, as in Glorot & Bengio (2010).
func fans(shape []int) (in, out float64) {
	switch len(shape) {
	case 0:
		return 1, 1
	case 1:
		return float64(shape[0]), float64(shape[0])
	}
	field := 1
	for _, d := range shape[2:] {
		field *= d
	}
	return float64(shape[0] * field), float64(shape[1] * field)
}

// Zeros initializes to 0.
func Zeros(*rand.Rand, []int, []float64) {}

// Const initializes every value to v.
func Const(v float64) Init {
	return func(_ *rand.Rand, _ []int, dst []float64) {
		for i := range dst {
			dst[i] = v
		}
	}
}

// Uniform draws from U(−a, a).
func Uniform(a float64) Init {
	return func(rng *rand.Rand, _ []int, dst []float64) {
		for i := range dst {
			dst[i] = a * (2*rng.Float64() - 1)
		}
	}
}

// Normal draws from N(0, std²).
func Normal(std float64) Init {
	return func(rng *rand.Rand, _ []int, dst []float64) {
		for i := range dst {
			dst[i] = std * rng.NormFloat64()
		}
	}
}

// GlorotUniform draws from U(−a, a) with a = √(6/(fan_in + fan_out))
// (Glorot & Bengio 2010, eq. 16): the default for feed-forward weights.
func GlorotUniform(rng *rand.Rand, shape []int, dst []float64) {
	in, out := fans(shape)
	Uniform(math.Sqrt(6/(in+out)))(rng, shape, dst)
}

// Orthogonal initializes a matrix (rows, cols) block by block: the columns
// are split into blocks of width rows (the gate blocks of a stacked recurrent
// weight (H, 4H) are H×H each), and each block is a random orthogonal matrix
// (QR of a Gaussian matrix with sign-corrected R diagonal; Saxe et al. 2014).
// Recurrent weights initialized this way keep gradient norms stable through
// time.
func Orthogonal(rng *rand.Rand, shape []int, dst []float64) {
	rows, cols := shape[0], 1
	for _, d := range shape[1:] {
		cols *= d
	}
	for c0 := 0; c0 < cols; c0 += rows {
		w := min(rows, cols-c0)
		q := randomOrthogonal(rng, rows, w) // rows × w
		for r := 0; r < rows; r++ {
			for c := 0; c < w; c++ {
				dst[r*cols+c0+c] = q.At(r, c)
			}
		}
	}
}

// randomOrthogonal returns an m×n matrix with orthonormal columns (m ≥ n) or
// rows (m < n).
func randomOrthogonal(rng *rand.Rand, m, n int) mat.Matrix {
	big, small := m, n
	if n > m {
		big, small = n, m
	}
	a := mat.NewDense(big, small, nil)
	for i := 0; i < big; i++ {
		for j := 0; j < small; j++ {
			a.Set(i, j, rng.NormFloat64())
		}
	}
	var qr mat.QR
	qr.Factorize(a)
	var q, r mat.Dense
	qr.QTo(&q)
	qr.RTo(&r)
	out := mat.NewDense(big, small, nil)
	for j := 0; j < small; j++ {
		sign := 1.0
		if r.At(j, j) < 0 {
			sign = -1
		}
		for i := 0; i < big; i++ {
			out.Set(i, j, sign*q.At(i, j))
		}
	}
	if n > m {
		return out.T()
	}
	return out
}

// LSTMBias initializes the stacked gate bias [i f o g] (length 4H) to zero
// except the forget gate, set to 1 (Gers et al. 2000; Jozefowicz et al.
// 2015), so that early in training the cell remembers by default.
func LSTMBias(_ *rand.Rand, shape []int, dst []float64) {
	h := shape[len(shape)-1] / 4
	for i := range dst {
		dst[i] = 0
	}
	for i := h; i < 2*h; i++ {
		dst[i] = 1
	}
}
