package sgemm

// Packing: copies of blocks of op(A) and op(B) in the order the
// micro-kernel reads them, so that its loads are sequential whatever the
// transposes and strides.

// packA packs α·op(A)[ic:+mm, pc:+kk] into strips of sgemmMR rows:
// dst[s·MR·kk + p·MR + r] = α·op(A)[ic + s·MR + r][pc + p]. The rows of the
// last strip beyond mm are zeros, so the kernel computes zeros there.
func (g *gemmArgs) packA(dst []float32, ic, mm, pc, kk int) {
	const mr = sgemmMR
	alpha := g.alpha
	for ir, si := 0, 0; ir < mm; ir, si = ir+stripRows(mm-ir), si+1 {
		strip := dst[si*mr*kk : (si+1)*mr*kk]
		rows := stripRows(mm - ir)
		switch {
		case g.transA:
			// A is stored k×m: the strip's six values for step p are
			// consecutive in row pc+p.
			if rows == mr && packStripAT(g.avx2, kk, g.a[pc*g.lda+ic+ir:], g.lda, alpha, strip) {
				continue
			}
			for p := range kk {
				src := g.a[(pc+p)*g.lda+ic+ir:][:rows]
				d := strip[p*mr : p*mr+mr]
				for r, v := range src {
					d[r] = alpha * v
				}
				clear(d[rows:])
			}
		case rows == mr:
			// Six rows of A read side by side, the strip written in order.
			lda, base := g.lda, (ic+ir)*g.lda+pc
			a0 := g.a[base:][:kk]
			a1 := g.a[base+lda:][:kk]
			a2 := g.a[base+2*lda:][:kk]
			a3 := g.a[base+3*lda:][:kk]
			a4 := g.a[base+4*lda:][:kk]
			a5 := g.a[base+5*lda:][:kk]
			for p := packStripAN(g.avx2, kk, g.a[base:], lda, alpha, strip); p < kk; p++ {
				d := (*[mr]float32)(strip[p*mr : p*mr+mr])
				d[0] = alpha * a0[p]
				d[1] = alpha * a1[p]
				d[2] = alpha * a2[p]
				d[3] = alpha * a3[p]
				d[4] = alpha * a4[p]
				d[5] = alpha * a5[p]
			}
		default:
			clear(strip)
			for r := range rows {
				src := g.a[(ic+ir+r)*g.lda+pc:][:kk]
				for p, v := range src {
					strip[p*mr+r] = alpha * v
				}
			}
		}
	}
}

// packB packs op(B)[pc:+kk, jc:+nn] into panels of sgemmNR columns:
// dst[t·NR·kk + p·NR + j] = op(B)[pc + p][jc + t·NR + j]. The columns of the
// last panel beyond nn are zeros.
func (g *gemmArgs) packB(dst []float32, jc, nn, pc, kk int) {
	const nr = sgemmNR
	if !g.transB {
		// Row by row of B, 16 values at a time into each panel: copies of
		// fixed size, which the compiler inlines.
		full := nn &^ (nr - 1)
		fullDone := full > 0 && packPanelsBN(g.avx2, kk, g.b[pc*g.ldb+jc:], g.ldb, full/nr, dst)
		for p := range kk {
			src := g.b[(pc+p)*g.ldb+jc:][:nn]
			for jr := 0; jr < full && !fullDone; jr += nr {
				*(*[nr]float32)(dst[jr*kk+p*nr:]) = *(*[nr]float32)(src[jr:])
			}
			if full < nn {
				d := dst[full*kk+p*nr:][:nr]
				copy(d, src[full:])
				clear(d[nn-full:])
			}
		}
		return
	}
	for jr := 0; jr < nn; jr += nr {
		w := min(nr, nn-jr)
		panel := dst[jr*kk : jr*kk+nr*kk]
		// B is stored n×k: column j of the panel is a row of B.
		p0 := 0
		if w == nr {
			p0 = packPanelBT(g.avx2, kk, g.b[(jc+jr)*g.ldb+pc:], g.ldb, panel)
		} else {
			clear(panel)
		}
		for j := range w {
			src := g.b[(jc+jr+j)*g.ldb+pc+p0:][:kk-p0]
			for p, v := range src {
				panel[(p0+p)*nr+j] = v
			}
		}
	}
}

// copyEdgePanel copies the last, partial panel of B (not transposed, read
// in place): columns j0 … j0+w−1 of rows pc … pc+kk−1, zero-padded to
// sgemmNR columns.
func (g *gemmArgs) copyEdgePanel(dst []float32, j0, w, pc, kk int) {
	for p := range kk {
		d := dst[p*sgemmNR : p*sgemmNR+sgemmNR]
		copy(d, g.b[(pc+p)*g.ldb+j0:][:w])
		clear(d[w:])
	}
}
