package attention

// Location features (Chorowski et al. 2015, eq. 8–9): a 1-D convolution of
// the previous weights (and, optionally, their running sum) with nf filters
// of odd width K, zero-padded to keep length T:
//
//	f[j, t] = Σ_c Σ_k F[j, c, k]·x_c[t + k − K/2]
//
// The features are stored transposed, fT (nf, T), so that each filter tap
// is one contiguous axpy over t. Only the columns [lo, hi) (the window) are
// computed.

// convForward writes fT[j, t] for t in [lo, hi). x1 is read only when
// channels is 2.
func convForward[F Float](fT, x0, x1, filters []F, nf, channels, width, T, lo, hi int) {
	half := width / 2
	for j := 0; j < nf; j++ {
		row := fT[j*T : (j+1)*T]
		clear(row[lo:hi])
		for c := 0; c < channels; c++ {
			x := x0
			if c == 1 {
				x = x1
			}
			taps := filters[(j*channels+c)*width : (j*channels+c+1)*width]
			for k, w := range taps {
				off := k - half // input position u = t + off
				t0, t1 := max(lo, -off), min(hi, T-off)
				if t0 < t1 && w != 0 {
					axpy(w, x[t0+off:t1+off], row[t0:t1])
				}
			}
		}
	}
}

// convBackward accumulates the filter gradient dFilters (nf, C, K) and the
// input gradients dx0, dx1 (T each; dx1 only when channels is 2) from the
// feature gradient dfT (nf, T), valid on the columns [lo, hi).
func convBackward[F Float](dFilters, dx0, dx1, dfT, x0, x1, filters []F, nf, channels, width, T, lo, hi int) {
	half := width / 2
	for j := 0; j < nf; j++ {
		g := dfT[j*T : (j+1)*T]
		for c := 0; c < channels; c++ {
			x, dx := x0, dx0
			if c == 1 {
				x, dx = x1, dx1
			}
			base := (j*channels + c) * width
			for k := 0; k < width; k++ {
				off := k - half
				t0, t1 := max(lo, -off), min(hi, T-off)
				if t0 >= t1 {
					continue
				}
				dFilters[base+k] += dot(g[t0:t1], x[t0+off:t1+off])
				axpy(filters[base+k], g[t0:t1], dx[t0+off:t1+off])
			}
		}
	}
}
