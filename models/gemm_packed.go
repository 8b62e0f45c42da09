package models

// packedRHS is a right-hand operand op(B) (k×n) shared by many products
// with different left-hand sides, such as the recurrent weights that every
// step of a sequence multiplies: float32 products in the default build
// read it from panels packed once (sgemm.PackedB), instead of packing op(B)
// per product or reading it in place (67 → 107 GFLOP/s for a BiLSTM
// step's (16×256)·(256×1024)). One-row products, the float64 path and
// the OpenBLAS build use B itself, which must stay unchanged while it is
// in use.
type packedRHS[F Float] struct {
	p32   packed32
	trans bool
	k, n  int
	b     []F
	ldb   int
	lazy  bool // the panels are not packed yet (setLazy)
}

// pack makes p op(B), where op(B) is B (k×n, row stride ldb) or, with
// trans, Bᵀ of a B stored n×k.
func (p *packedRHS[F]) pack(trans bool, k, n int, b []F, ldb int) {
	p.trans, p.k, p.n, p.b, p.ldb, p.lazy = trans, k, n, b, ldb, false
	if b32, ok := any(b).([]float32); ok {
		pack32(&p.p32, trans, k, n, b32, ldb)
	}
}

// setLazy is pack for a p that one goroutine uses: the panels are packed
// by the first product of more than one row, so a sequence that never
// has two (a single utterance's listener) does not pack them.
func (p *packedRHS[F]) setLazy(trans bool, k, n int, b []F, ldb int) {
	p.trans, p.k, p.n, p.b, p.ldb, p.lazy = trans, k, n, b, ldb, true
}

// gemm computes C = α·A·op(B) + β·C for A m×k (row stride lda), C m×n.
func (p *packedRHS[F]) gemm(m int, alpha F, a []F, lda int, beta F, c []F, ldc int) {
	if a32, ok := any(a).([]float32); ok && m > 1 {
		if p.lazy {
			pack32(&p.p32, p.trans, p.k, p.n, any(p.b).([]float32), p.ldb)
			p.lazy = false
		}
		gemmPacked32(&p.p32, m, float32(alpha), a32, lda, float32(beta), any(c).([]float32), ldc)
		return
	}
	gemm(false, p.trans, m, p.n, p.k, alpha, a, lda, p.b, p.ldb, beta, c, ldc)
}
