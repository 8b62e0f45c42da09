package sgemm

// PackedB is a right-hand operand op(B) (k×n) packed once for many
// products with different left-hand sides, as a recurrence multiplies
// every step's state by the same weights. Gemm packs op(B) on every call
// or, for few rows, reads it in place; in place, a B whose row stride is a
// multiple of 4 KiB maps every row of a panel to the same L1 set, and the
// recurrent product (16×256)·(256×1024) ran at 67 GFLOP/s against 107 from
// panels packed once (BenchmarkPackedB).
//
// Packed while SetBF16 is on, op(B) is rounded to bfloat16 and every
// product with it has bfloat16 operands (bf16.go), whatever the switch
// says by then.
//
// The zero value is empty; Pack fills it, reusing its memory.
type PackedB struct {
	k, n int
	data []float32 // the blocks in the order serial visits them (jc, then pc)
	bf   []uint32  // or, packed in bfloat16, the blocks in bfloat16 pairs
	bf16 bool      // bf holds the blocks, not data
}

// Pack packs op(B), where op(B) is k×n: B itself (k×n, row stride ldb) or,
// with transB, Bᵀ of a B stored n×k. B is not referenced afterwards.
func (p *PackedB) Pack(transB bool, k, n int, b []float32, ldb int) {
	if k < 0 || n < 0 {
		panic("sgemm: PackedB.Pack: negative size")
	}
	rows, cols := k, n
	if transB {
		rows, cols = n, k
	}
	checkMatrix("B", rows, cols, len(b), ldb, k > 0 && n > 0)
	p.k, p.n = k, n
	g := gemmArgs{transB: transB, n: n, k: k, b: b, ldb: ldb, avx2: sgemmAVX2}
	if p.bf16 = bf16Mode.Load(); p.bf16 {
		p.packBF16(&g)
		return
	}
	size := 0
	for jc := 0; jc < n; jc += sgemmNC {
		size += k * roundUp(min(sgemmNC, n-jc), sgemmNR)
	}
	p.data = grow(p.data, size)
	off := 0
	for jc := 0; jc < n; jc += sgemmNC {
		nn := min(sgemmNC, n-jc)
		for pc := 0; pc < k; pc += sgemmKC {
			kk := min(sgemmKC, k-pc)
			g.packB(p.data[off:], jc, nn, pc, kk)
			off += kk * roundUp(nn, sgemmNR)
		}
	}
}

// packBF16 packs g's op(B) in bfloat16 pairs, block by block in the
// order serialBF16 visits them.
func (p *PackedB) packBF16(g *gemmArgs) {
	k, n := p.k, p.n
	size := 0
	for jc := 0; jc < n; jc += bf16NC {
		w := roundUp(min(bf16NC, n-jc), bf16NR)
		for pc := 0; pc < k; pc += bf16KC {
			size += (min(bf16KC, k-pc) + 1) / 2 * w
		}
	}
	p.bf = growWords(p.bf, size)
	off := 0
	for jc := 0; jc < n; jc += bf16NC {
		nn := min(bf16NC, n-jc)
		for pc := 0; pc < k; pc += bf16KC {
			kk := min(bf16KC, k-pc)
			g.packBBF16(p.bf[off:], jc, nn, pc, kk)
			off += (kk + 1) / 2 * roundUp(nn, bf16NR)
		}
	}
}

// Dims returns op(B)'s k and n.
func (p *PackedB) Dims() (k, n int) { return p.k, p.n }

// GemmPacked computes C = α·op(A)·op(B) + β·C as Gemm does, with op(B)
// packed in b: op(A) is m×k, C m×n, (k, n) = b.Dims(). Large products
// split their rows or, within one block of panels (n ≤ 4096), their
// columns over goroutines, as Gemm does; every call shares b read-only,
// so concurrent calls may use the same PackedB.
func GemmPacked(transA bool, m int, alpha float32, a []float32, lda int, b *PackedB, beta float32, c []float32, ldc int) {
	n, k := b.n, b.k
	if m == 0 || n == 0 {
		return
	}
	rowsA, colsA := m, k
	if transA {
		rowsA, colsA = k, m
	}
	checkMatrix("A", rowsA, colsA, len(a), lda, k > 0)
	checkMatrix("C", m, n, len(c), ldc, true)
	if k == 0 || alpha == 0 {
		scaleRows(m, n, beta, c, ldc)
		return
	}
	g := gemmArgs{
		transA: transA,
		m:      m, n: n, k: k,
		alpha: alpha, a: a, lda: lda,
		packed: b.data, packedN: n,
		beta: beta, c: c, ldc: ldc,
		avx2: sgemmAVX2,
	}
	if b.bf16 {
		g.packed, g.packedBF, g.bf16 = nil, b.bf, true
	}
	g.run()
}
