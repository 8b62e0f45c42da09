package sgemm

// The fused GEMM behind every convolution of the image encoder (package
// vision):
//
//	C = clamp(A·B + bias, lo, hi)      A: M×K, B: K×N, C: M×N
//
// A is activations (M = output positions, K = input channels × taps), read
// in place with a row stride; B is a weight matrix, packed once when the
// model is loaded; the bias and the clamp are the folded batch norm and the
// fused ReLU6. C is written with a row stride, so the output is HWC.
//
// The work is cut into MR×NR tiles computed by a micro-kernel that keeps
// the whole tile in registers while it runs over K: with AVX2 and FMA an
// assembly kernel (twelve 8-wide accumulators), elsewhere a Go kernel in
// 2×4 register blocks. How tiles are spread over goroutines is the
// caller's business.

// Tile size of Packed.Tile: rows of A (output positions) × columns of B
// (output channels). Gemm's micro-kernels use the same.
const (
	MR = sgemmMR
	NR = sgemmNR
)

// Packed is a K×N matrix B packed for Tile: ⌈N/NR⌉ panels, each K rows of
// NR columns (zero past N), so that the kernel reads one panel front to
// back, and a bias padded with zeros to the panels' width.
type Packed struct {
	K, N   int
	panels []float32 // panel p, row r: panels[(p*K+r)*NR:][:NR]
	bias   []float32
}

// Pack packs B = wᵀ, where w is N×K row-major: the layout of TFLite
// filters ([out][kh][kw][in]) flattened to one row per output channel.
// bias (length N) may be nil.
func Pack(w []float32, n, k int, bias []float32) *Packed {
	np := (n + NR - 1) / NR
	p := &Packed{K: k, N: n, panels: make([]float32, np*k*NR), bias: make([]float32, np*NR)}
	for j := 0; j < n; j++ {
		panel := p.panels[(j/NR)*k*NR:]
		col := j % NR
		row := w[j*k : (j+1)*k]
		for r, v := range row {
			panel[r*NR+col] = v
		}
	}
	copy(p.bias, bias)
	return p
}

// Panels returns the number of NR-wide column panels, ⌈N/NR⌉.
func (p *Packed) Panels() int { return (p.N + NR - 1) / NR }

func (p *Packed) panel(i int) []float32 {
	return p.panels[i*p.K*NR : (i+1)*p.K*NR]
}

// Scratch is the memory of Tile for edge tiles: one per goroutine.
type Scratch struct {
	a []float32 // MR×K rows of A for an edge tile, zero padded
	c []float32 // MR×NR tile of C for an edge tile
}

// NewScratch returns scratch for matrices of up to maxK rows.
func NewScratch(maxK int) *Scratch {
	return &Scratch{a: make([]float32, MR*maxK), c: make([]float32, MR*NR)}
}

// Tile computes the tile of C = clamp(A·B + bias, lo, hi) at rows i0…
// i0+MR−1 (fewer at the bottom of an m-row A) and column panel p. A holds
// row i at a[i*lda:][:K], C row i at c[i*ldc:][:N]. avx2 selects the
// assembly kernel where this build has it (see internal/cpu); s is needed
// where the tile overhangs A or C.
func (b *Packed) Tile(avx2 bool, i0, p, m int, a []float32, lda int, c []float32, ldc int, lo, hi float32, s *Scratch) {
	k := b.K
	rows := min(MR, m-i0)
	cols := min(NR, b.N-p*NR)
	at, ldat := a[i0*lda:], lda
	if rows < MR {
		at, ldat = s.a[:MR*k], k
		clear(at)
		for i := 0; i < rows; i++ {
			copy(at[i*k:(i+1)*k], a[(i0+i)*lda:])
		}
	}
	bias := b.bias[p*NR : (p+1)*NR]
	if rows == MR && cols == NR {
		biasClampKernel(avx2, k, at, ldat, b.panel(p), c[i0*ldc+p*NR:], ldc, bias, lo, hi)
		return
	}
	biasClampKernel(avx2, k, at, ldat, b.panel(p), s.c, NR, bias, lo, hi)
	for i := 0; i < rows; i++ {
		copy(c[(i0+i)*ldc+p*NR:][:cols], s.c[i*NR:])
	}
}

// biasClampKernelGo is the portable micro-kernel: it writes the full MR×NR
// tile
//
//	c[i*ldc+j] = clamp(bias[j] + Σ_r a[i*lda+r]·b[r*16+j], lo, hi)
//
// as twelve 2×4 blocks, each summed by dot2x4.
func biasClampKernelGo(k int, a []float32, lda int, b []float32, c []float32, ldc int, bias []float32, lo, hi float32) {
	b = b[:k*NR]
	for i := 0; i < MR; i += 2 {
		a0 := a[i*lda : i*lda+k]
		a1 := a[(i+1)*lda : (i+1)*lda+k]
		for j := 0; j < NR; j += 4 {
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
		w := (*[4]float32)(b[r*NR:])
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
