package vision

import "math"

// axisMatrix holds, for each of n pixels along one axis, the weights of
// the grid's cells along that axis: the pixel's value is Σ w[c]·g[c].
type axisMatrix struct {
	cells int
	w     []float32 // n × cells
}

func (m axisMatrix) row(i int) []float32 { return m.w[i*m.cells : (i+1)*m.cells] }

// gaussSamples is how many points per cell the Gaussian integrates the
// bilinear field at (Xu et al. upscaled ×16 before filtering).
const gaussSamples = 16

// axisWeights returns the interpolation weights of n pixels over cells
// grid cells that evenly cover [r0, r1) in pixels. Pixels whose centers lie
// outside get all-zero rows; the others' rows sum to 1.
func axisWeights(n, cells int, r0, r1 float64, s Smoothing, sigma float64) axisMatrix {
	m := axisMatrix{cells: cells, w: make([]float32, n*cells)}
	span := r1 - r0
	var acc []float64
	if s == SmoothGaussian {
		acc = make([]float64, cells)
	}
	for i := range n {
		p := float64(i) + 0.5
		if p < r0 || p >= r1 {
			continue
		}
		u := (p - r0) / span * float64(cells) // in cell units, cell c is [c, c+1)
		w := m.row(i)
		switch s {
		case SmoothNearest:
			w[min(int(u), cells-1)] = 1
		case SmoothBilinear:
			c, f := bilinearAt(u, cells)
			w[c] = float32(1 - f)
			if f > 0 {
				w[c+1] = float32(f)
			}
		case SmoothGaussian:
			gaussianRow(w, acc, u, cells, sigma)
		}
	}
	return m
}

// bilinearAt returns the cell c and fraction f such that the bilinear
// field at u (cell units) is (1−f)·g[c] + f·g[c+1]; f is 0 at the last
// cell and beyond the outer cell centers, where the field is flat.
func bilinearAt(u float64, cells int) (c int, f float64) {
	t := u - 0.5
	if t <= 0 {
		return 0, 0
	}
	if t >= float64(cells-1) {
		return cells - 1, 0
	}
	c = int(t)
	return c, t - float64(c)
}

// gaussianRow writes into w the weights of the bilinear field blurred by a
// Gaussian of sigma cells and evaluated at u: the integral of the kernel
// against the field, with the field mirrored at 0 and at cells (scipy's
// and skimage's "reflect" mode), sampled gaussSamples times per cell and
// truncated at 4σ. acc is scratch of len cells.
func gaussianRow(w []float32, acc []float64, u float64, cells int, sigma float64) {
	clear(acc)
	reach := 4 * sigma
	period := 2 * float64(cells)
	inv := -0.5 / (sigma * sigma)
	var total float64
	for k := range gaussSamples * cells {
		s := (float64(k) + 0.5) / gaussSamples
		// Images of s under the mirroring: s + j·period and −s + j·period.
		var g float64
		for _, base := range [2]float64{s, -s} {
			first := math.Ceil((u - reach - base) / period)
			last := math.Floor((u + reach - base) / period)
			for j := first; j <= last; j++ {
				d := u - (base + j*period)
				g += math.Exp(d * d * inv)
			}
		}
		if g == 0 {
			continue
		}
		c, f := bilinearAt(s, cells)
		acc[c] += g * (1 - f)
		if f > 0 {
			acc[c+1] += g * f
		}
		total += g
	}
	for c, v := range acc {
		w[c] = float32(v / total)
	}
}
