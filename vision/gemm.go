package vision

// The GEMM behind every convolution of the encoder:
//
//	C = clamp(A·B + bias, lo, hi)      A: M×K, B: K×N, C: M×N
//
// A is activations (M = output positions, K = input channels × taps), read
// in place with a row stride; B is a weight matrix, packed once when the
// model is loaded; the bias and the clamp are the folded batch norm and the
// fused ReLU6. C is written with a row stride, so the output is HWC.
//
// The work is cut into gemmMR×gemmNR tiles computed by a micro-kernel that
// keeps the whole tile in registers while it runs over K: on amd64 with
// AVX2 and FMA an assembly kernel (twelve 8-wide accumulators), elsewhere a
// Go kernel in 2×4 register blocks. Tiles are grouped into tasks spread
// over goroutines.

// Micro-kernel tile size: rows of A (output positions) × columns of B
// (output channels).
const (
	gemmMR = 6
	gemmNR = 16
)

// packedB is a K×N matrix B packed for the micro-kernel: ⌈N/16⌉ panels,
// each K rows of 16 columns (zero past N), so that the kernel reads one
// panel front to back. bias is padded with zeros to the panels' width.
type packedB struct {
	k, n   int
	panels []float32 // panel p, row r: panels[(p*k+r)*gemmNR:][:gemmNR]
	bias   []float32
}

// packWeights packs B = wᵀ, where w is N×K row-major: the layout of TFLite
// filters ([out][kh][kw][in]) flattened to one row per output channel.
// bias (length N) may be nil.
func packWeights(w []float32, n, k int, bias []float32) *packedB {
	np := (n + gemmNR - 1) / gemmNR
	p := &packedB{k: k, n: n, panels: make([]float32, np*k*gemmNR), bias: make([]float32, np*gemmNR)}
	for j := 0; j < n; j++ {
		panel := p.panels[(j/gemmNR)*k*gemmNR:]
		col := j % gemmNR
		row := w[j*k : (j+1)*k]
		for r, v := range row {
			panel[r*gemmNR+col] = v
		}
	}
	copy(p.bias, bias)
	return p
}

func (p *packedB) panel(i int) []float32 {
	return p.panels[i*p.k*gemmNR : (i+1)*p.k*gemmNR]
}

// scratch is the per-goroutine memory of the kernels.
type scratch struct {
	a     []float32 // gemmMR×K rows of A for an edge tile, zero padded
	c     []float32 // gemmMR×gemmNR tile of C for an edge tile
	patch []float32 // a 3×3×channels depthwise window at the border
}

func newScratch(maxK, maxChannels int) *scratch {
	return &scratch{
		a:     make([]float32, gemmMR*maxK),
		c:     make([]float32, gemmMR*gemmNR),
		patch: make([]float32, 9*maxChannels),
	}
}

// gemm computes C = clamp(A·B + bias, lo, hi) for M rows. A holds row i at
// a[i*lda:][:K], C row i at c[i*ldc:][:N]. scratch has one entry per
// goroutine of par, each sized for at least b.k.
func gemm(m int, a []float32, lda int, b *packedB, c []float32, ldc int, lo, hi float32, par parallel, scratch []*scratch) {
	if m == 0 || b.n == 0 {
		return
	}
	tiles := (m + gemmMR - 1) / gemmMR
	panels := (b.n + gemmNR - 1) / gemmNR
	// Tasks are rectangles of tilesPer row tiles × panelsPer panels. A
	// block of 8 row tiles (48 rows of A, at most 184 KB for K = 960)
	// stays in L2 while the panels stream past; more tasks than
	// goroutines balance the load.
	tilesPer, panelsPer := min(tiles, 8), panels
	if par.n > 1 {
		for (tiles+tilesPer-1)/tilesPer*((panels+panelsPer-1)/panelsPer) < 4*par.n {
			if panelsPer > 1 {
				panelsPer = (panelsPer + 1) / 2
			} else if tilesPer > 1 {
				tilesPer = (tilesPer + 1) / 2
			} else {
				break
			}
		}
	}
	rowTasks := (tiles + tilesPer - 1) / tilesPer
	colTasks := (panels + panelsPer - 1) / panelsPer
	par.do(rowTasks*colTasks, func(worker, task int) {
		s := scratch[worker]
		t0 := (task / colTasks) * tilesPer
		p0 := (task % colTasks) * panelsPer
		for p := p0; p < min(p0+panelsPer, panels); p++ {
			for t := t0; t < min(t0+tilesPer, tiles); t++ {
				gemmTile(t*gemmMR, p, m, a, lda, b, c, ldc, lo, hi, s)
			}
		}
	})
}

// gemmTile computes the tile of C at rows i0.., panel p, going through
// scratch where the tile overhangs A or C.
func gemmTile(i0, p, m int, a []float32, lda int, b *packedB, c []float32, ldc int, lo, hi float32, s *scratch) {
	k := b.k
	rows := min(gemmMR, m-i0)
	cols := min(gemmNR, b.n-p*gemmNR)
	at, ldat := a[i0*lda:], lda
	if rows < gemmMR {
		at, ldat = s.a[:gemmMR*k], k
		clear(at)
		for i := 0; i < rows; i++ {
			copy(at[i*k:(i+1)*k], a[(i0+i)*lda:])
		}
	}
	bias := b.bias[p*gemmNR : (p+1)*gemmNR]
	if rows == gemmMR && cols == gemmNR {
		gemmKernel(k, at, ldat, b.panel(p), c[i0*ldc+p*gemmNR:], ldc, bias, lo, hi)
		return
	}
	gemmKernel(k, at, ldat, b.panel(p), s.c, gemmNR, bias, lo, hi)
	for i := 0; i < rows; i++ {
		copy(c[(i0+i)*ldc+p*gemmNR:][:cols], s.c[i*gemmNR:])
	}
}

// gemmKernelGo is the portable micro-kernel: it writes the full
// gemmMR×gemmNR tile
//
//	c[i*ldc+j] = clamp(bias[j] + Σ_r a[i*lda+r]·b[r*16+j], lo, hi)
//
// as twelve 2×4 blocks, each summed by dot2x4.
func gemmKernelGo(k int, a []float32, lda int, b []float32, c []float32, ldc int, bias []float32, lo, hi float32) {
	b = b[:k*gemmNR]
	for i := 0; i < gemmMR; i += 2 {
		a0 := a[i*lda : i*lda+k]
		a1 := a[(i+1)*lda : (i+1)*lda+k]
		for j := 0; j < gemmNR; j += 4 {
			s00, s01, s02, s03, s10, s11, s12, s13 := dot2x4(a0, a1, b[j:])
			bb := (*[4]float32)(bias[j:])
			r0 := (*[4]float32)(c[i*ldc+j:])
			r1 := (*[4]float32)(c[(i+1)*ldc+j:])
			r0[0], r0[1], r0[2], r0[3] = clamp(s00+bb[0], lo, hi), clamp(s01+bb[1], lo, hi), clamp(s02+bb[2], lo, hi), clamp(s03+bb[3], lo, hi)
			r1[0], r1[1], r1[2], r1[3] = clamp(s10+bb[0], lo, hi), clamp(s11+bb[1], lo, hi), clamp(s12+bb[2], lo, hi), clamp(s13+bb[3], lo, hi)
		}
	}
}

// dot2x4 returns the 2×4 block Σ_r a_i[r]·b[r*16+j] for rows a0, a1 and
// columns j < 4 of b. It is kept out of line on purpose: alone, its eight
// sums, two values of A and four of B stay in registers, while inlined
// into the kernel (or as larger 3×4 blocks) the compiler spills them to the
// stack and runs 2.5 times slower.
//
//go:noinline
func dot2x4(a0, a1, b []float32) (s00, s01, s02, s03, s10, s11, s12, s13 float32) {
	a1 = a1[:len(a0)]
	for r, x := range a0 {
		y := a1[r]
		w := (*[4]float32)(b[r*gemmNR:])
		s00 += x * w[0]
		s01 += x * w[1]
		s02 += x * w[2]
		s03 += x * w[3]
		s10 += y * w[0]
		s11 += y * w[1]
		s12 += y * w[2]
		s13 += y * w[3]
	}
	return
}

// clamp limits v to [lo, hi]. It compiles to MINSS/MAXSS-like branch-free
// code: a branch would be mispredicted half the time at a ReLU.
func clamp(v, lo, hi float32) float32 {
	return max(min(v, hi), lo)
}
