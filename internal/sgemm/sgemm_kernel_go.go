package sgemm

// The Go kernels: the fallback where the assembly ones cannot run, with
// the same contracts. The Go compiler does not vectorize, so they run one
// multiply-add per instruction; they are written so that it at least
// removes the bounds checks from the inner loops.

// sgemmTileGo is the micro-kernel: for i < rows ≤ sgemmMR, j < sgemmNR,
// c[i·ldc+j] = Σ_{p<k} a[p·MR+i]·b[p·ldb+j] + β·c[i·ldc+j], without
// reading c when β = 0.
//
// The tile is computed in 2×4 blocks, each over the whole of k with its
// eight sums in registers (the compiler has 15 for floats; 3×4 blocks
// spill more and run slower); a block's second row beyond rows multiplies
// the strip's zero padding and is not stored. It runs at 2–2.7 GFLOP/s on
// data in L1 (one core of the Xeon this was developed on), where gonum's
// SGEMM, with SSE assembly inside, reaches 3.5–4.5 on whole products.
func sgemmTileGo(rows, k int, a, b []float32, ldb int, c []float32, ldc int, beta float32) {
	const mr, nr = sgemmMR, sgemmNR
	var acc [mr * nr]float32
	a = a[:k*mr]
	for i0 := 0; i0 < rows; i0 += 2 {
		for j0 := 0; j0 < nr; j0 += 4 {
			var c00, c01, c02, c03, c10, c11, c12, c13 float32
			ia, ib := i0, j0
			for range k {
				ap := a[ia : ia+2 : ia+2]
				bp := b[ib : ib+4 : ib+4]
				a0, a1 := ap[0], ap[1]
				b0, b1, b2, b3 := bp[0], bp[1], bp[2], bp[3]
				c00 += a0 * b0
				c01 += a0 * b1
				c02 += a0 * b2
				c03 += a0 * b3
				c10 += a1 * b0
				c11 += a1 * b1
				c12 += a1 * b2
				c13 += a1 * b3
				ia += mr
				ib += ldb
			}
			r0 := (*[4]float32)(acc[i0*nr+j0:])
			r1 := (*[4]float32)(acc[(i0+1)*nr+j0:])
			r0[0], r0[1], r0[2], r0[3] = c00, c01, c02, c03
			r1[0], r1[1], r1[2], r1[3] = c10, c11, c12, c13
		}
	}
	for i := range rows {
		src := (*[nr]float32)(acc[i*nr:])
		dst := (*[nr]float32)(c[i*ldc : i*ldc+nr])
		if beta == 0 {
			*dst = *src
			continue
		}
		for j, v := range src {
			dst[j] = v + beta*dst[j]
		}
	}
}

// gemvNGo computes y[j] = Σ_{p<k} x[p]·b[p·ldb+j] for j < len(y).
func gemvNGo(k int, x, b []float32, ldb int, y []float32) {
	clear(y)
	for p, xp := range x[:k] {
		row := b[p*ldb:][:len(y)]
		for j, v := range row {
			y[j] += xp * v
		}
	}
}

// gemvTGo computes y[j] = Σ_{p<k} x[p]·b[j·ldb+p] for j < len(y).
func gemvTGo(k int, x, b []float32, ldb int, y []float32) {
	x = x[:k]
	for j := range y {
		row := b[j*ldb:][:k]
		var s0, s1, s2, s3 float32
		p := 0
		for ; p+4 <= k; p += 4 {
			s0 += x[p] * row[p]
			s1 += x[p+1] * row[p+1]
			s2 += x[p+2] * row[p+2]
			s3 += x[p+3] * row[p+3]
		}
		for ; p < k; p++ {
			s0 += x[p] * row[p]
		}
		y[j] = (s0 + s1) + (s2 + s3)
	}
}
