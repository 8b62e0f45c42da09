package sgemm

// Block sizes of the packed product (see sgemm). The micro-tile is
// sgemmMR×sgemmNR; a packed strip of A (MR×KC, 6 KiB) and a panel of B
// (KC×NR, 16 KiB) stay in the 32–48 KiB L1 cache while the tile is
// computed, a packed block of A (MC×KC, 144 KiB) in L2, and the packed block
// of B (KC×NC, up to 4 MiB) in L2 or L3.
const (
	sgemmMR = 6
	sgemmNR = 16
	sgemmKC = 256
	sgemmMC = 144
	sgemmNC = 4096

	// sgemmInPlaceRows is the most rows of C for which B (not transposed)
	// is read in place rather than packed: up to it each panel of B is
	// used by too few strips of A to repay the copy (measured: in place is
	// 1.2–2× faster at 16–64 rows, 5–25% slower from about 96 rows on).
	sgemmInPlaceRows = 64
)

// serial computes the product on the calling goroutine with the packing
// buffers of s.
func (g *gemmArgs) serial(s *sgemmScratch) {
	if g.m == 1 && g.packed == nil && g.packedBF == nil {
		g.gemvRow() // a column chunk of a parallel matrix–vector product
		return
	}
	if g.bf16 {
		g.serialBF16(s)
		return
	}
	// The Go kernel, which runs over the panel once per 3×4 block, always
	// wants it packed.
	inPlace := g.avx2 && !g.transB && g.m <= sgemmInPlaceRows && g.packed == nil
	off := 0 // of the block in g.packed
	for jc := 0; jc < g.n; jc += sgemmNC {
		nn := min(sgemmNC, g.n-jc)
		for pc := 0; pc < g.k; pc += sgemmKC {
			kk := min(sgemmKC, g.k-pc)
			beta := g.beta
			if pc > 0 {
				beta = 1 // C already holds β·C plus the first blocks of the sum
			}
			panels := s.b
			switch {
			case g.packed != nil:
				// A column chunk of a product (packedCol > 0 or n <
				// packedN) lies within one NC block: see split.
				panels = g.packed[off+g.packedCol*kk:]
				off += kk * roundUp(min(sgemmNC, g.packedN-jc), sgemmNR)
			case !inPlace:
				s.b = grow(s.b, kk*roundUp(nn, sgemmNR))
				g.packB(s.b, jc, nn, pc, kk)
				panels = s.b
			}
			for ic := 0; ic < g.m; ic += sgemmMC {
				mm := min(sgemmMC, g.m-ic)
				g.packA(s.a, ic, mm, pc, kk)
				g.macro(s, panels, inPlace, ic, mm, jc, nn, pc, kk, beta)
			}
		}
	}
}

// macro computes C[ic:+mm, jc:+nn] = Ap·Bp + β·C[ic:+mm, jc:+nn] from the
// packed block of A in s.a and the panels of B (packed in panels, or in
// place).
func (g *gemmArgs) macro(s *sgemmScratch, panels []float32, inPlace bool, ic, mm, jc, nn, pc, kk int, beta float32) {
	for jr := 0; jr < nn; jr += sgemmNR {
		w := min(sgemmNR, nn-jr)
		var panel []float32
		ld := sgemmNR
		switch {
		case !inPlace:
			panel = panels[jr*kk:]
		case w == sgemmNR:
			panel, ld = g.b[pc*g.ldb+jc+jr:], g.ldb
		default:
			panel = s.edge
			g.copyEdgePanel(panel, jc+jr, w, pc, kk)
		}
		for ir, si := 0, 0; ir < mm; ir, si = ir+stripRows(mm-ir), si+1 {
			rows := stripRows(mm - ir)
			strip := s.a[si*sgemmMR*kk:]
			c := g.c[(ic+ir)*g.ldc+jc+jr:]
			if w == sgemmNR {
				sgemmTile(g.avx2, rows, kk, strip, panel, ld, c, g.ldc, beta)
				continue
			}
			sgemmTile(g.avx2, rows, kk, strip, panel, ld, s.tile[:], sgemmNR, 0)
			mergeTile(rows, w, &s.tile, c, g.ldc, beta)
		}
	}
}

// stripRows returns the rows of the strip of A that starts with left rows
// still to go: sgemmMR, except that the last 7 or 8 rows take strips of 4
// and 3 or 4 rather than 6 and 1 or 2, whose kernels load a panel of B
// per row or two (a product of 8 rows, such as a speller step of a half
// batch, spent a quarter of its time in the 2-row kernel). Packing and
// the macro-kernel cut A the same way; the count of strips is the same as
// with strips of 6, so the packed block's size is too.
func stripRows(left int) int {
	if left == 7 || left == 8 {
		return 4
	}
	return min(sgemmMR, left)
}

// mergeTile writes the top-left rows×w corner of an edge tile into C:
// C = tile + β·C, without reading C when β = 0.
func mergeTile(rows, w int, tile *[sgemmMR * sgemmNR]float32, c []float32, ldc int, beta float32) {
	for r := range rows {
		src := tile[r*sgemmNR : r*sgemmNR+w]
		dst := c[r*ldc : r*ldc+w]
		if beta == 0 {
			copy(dst, src)
			continue
		}
		for j, v := range src {
			dst[j] = v + beta*dst[j]
		}
	}
}

func roundUp(n, unit int) int { return (n + unit - 1) / unit * unit }

// grow returns s resliced to n elements, reallocated if it is too short.
func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}
