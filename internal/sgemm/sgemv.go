package sgemm

// Matrix–vector products. With one row of C (m = 1: greedy decoding of one
// utterance) or one column (n = 1), each element of B (or A) is used once,
// so packing it would only add a copy: the kernels stream over the matrix
// in place. Two shapes cover all four transposes:
//
//	gemvN: y = xᵀ·M for M stored k×len(y)   (stream over the rows of M)
//	gemvT: y = M·x for M stored len(y)×k    (dot products with its rows)

// sgemvParallelElems is the size of op(B) (n·k) from which a one-row
// product may split over goroutines (gemm; run's own threshold of
// sgemmParallelFlops, n·k ≥ 8.4 M, then decides): below it B is read from
// cache in less time than a hand-off takes.
const sgemvParallelElems = 1 << 20

// gemvRow computes the one row of C = α·op(A)·op(B) + β·C.
func (g *gemmArgs) gemvRow() {
	s := getScratch()
	x := g.a[:g.k] // op(A)'s only row
	if g.transA {  // A is stored k×1: its column, row stride lda
		s.x = grow(s.x, g.k)
		x = s.x
		for p := range x {
			x[p] = g.a[p*g.lda]
		}
	}
	s.y = grow(s.y, g.n)
	y := s.y
	if g.transB {
		gemvT(g.avx2, g.k, x, g.b, g.ldb, y) // B stored n×k: y = B·x
	} else {
		gemvN(g.avx2, g.k, x, g.b, g.ldb, y) // B stored k×n: y = xᵀ·B
	}
	c := g.c[:g.n]
	for j, v := range y {
		if g.beta == 0 {
			c[j] = g.alpha * v
		} else {
			c[j] = g.alpha*v + g.beta*c[j]
		}
	}
	putScratch(s)
}

// gemvColumn computes the one column of C = α·op(A)·op(B) + β·C.
func (g *gemmArgs) gemvColumn() {
	s := getScratch()
	x := g.b[:g.k] // op(B)'s only column: B stored 1×k
	if !g.transB { // B is stored k×1: its column, row stride ldb
		s.x = grow(s.x, g.k)
		x = s.x
		for p := range x {
			x[p] = g.b[p*g.ldb]
		}
	}
	s.y = grow(s.y, g.m)
	y := s.y
	if g.transA {
		gemvN(g.avx2, g.k, x, g.a, g.lda, y) // A stored k×m: y = xᵀ·A
	} else {
		gemvT(g.avx2, g.k, x, g.a, g.lda, y) // A stored m×k: y = A·x
	}
	for i, v := range y {
		ci := &g.c[i*g.ldc]
		if g.beta == 0 {
			*ci = g.alpha * v
		} else {
			*ci = g.alpha*v + g.beta**ci
		}
	}
	putScratch(s)
}
