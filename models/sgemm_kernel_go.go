package models

// The Go kernels: the fallback where the assembly ones cannot run, with
// the same contracts. The Go compiler does not vectorize, so they run one
// multiply-add per instruction; they are written so that it at least
// removes the bounds checks from the inner loops.

// sgemmTileGo is the micro-kernel: for i < rows ≤ sgemmMR, j < sgemmNR,
// c[i·ldc+j] = Σ_{p<k} a[p·MR+i]·b[p·ldb+j] + β·c[i·ldc+j], without
// reading c when β = 0.
func sgemmTileGo(rows, k int, a, b []float32, ldb int, c []float32, ldc int, beta float32) {
	const mr, nr = sgemmMR, sgemmNR
	var acc [mr][nr]float32
	for p := range k {
		bp := (*[nr]float32)(b[p*ldb : p*ldb+nr])
		ap := (*[mr]float32)(a[p*mr : p*mr+mr])
		for i := range rows {
			ai, row := ap[i], &acc[i]
			for j := range nr {
				row[j] += ai * bp[j]
			}
		}
	}
	for i := range rows {
		dst := (*[nr]float32)(c[i*ldc : i*ldc+nr])
		if beta == 0 {
			*dst = acc[i]
			continue
		}
		for j, v := range acc[i] {
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
