// Package sgemm is the module's single-precision matrix product, shared by
// package models (its Gemm, and every float32 product gorgonia makes in
// the default build) and package vision (the convolutions of the image
// encoder). It needs nothing but the standard library.
//
// Gemm computes C = α·op(A)·op(B) + β·C on row-major matrices, with
// gonum's argument conventions, instead of gonum's SGEMM (3–5 GFLOP/s per
// core here). Packed and Packed.Tile compute C = clamp(A·B + bias, lo, hi)
// with B packed once, the fused convolution of a folded batch norm and a
// ReLU6 (packed.go).
package sgemm

import "fmt"

// Gemm computes C = α·op(A)·op(B) + β·C on row-major matrices, where op(X)
// is X or Xᵀ as transA/transB say, op(A) is m×k, op(B) is k×n and C is m×n;
// lda, ldb and ldc are the row strides of A, B and C as stored. β = 0
// means C is not read. Mismatched sizes panic: they are programmer errors.
//
// The algorithm is the GotoBLAS/BLIS one (Goto and van de Geijn, "Anatomy
// of high-performance matrix multiplication", ACM TOMS 34(3), 2008; Van
// Zee and van de Geijn, "BLIS", ACM TOMS 41(3), 2015):
//
//	for jc over n in steps of NC:                 columns of C and op(B)
//	  for pc over k in steps of KC:               the shared dimension
//	    pack op(B)[pc:+KC, jc:+NC] into 16-wide panels    (L2 / L3)
//	    for ic over m in steps of MC:
//	      pack α·op(A)[ic:+MC, pc:+KC] into 6-row strips  (L2)
//	      for each 16-wide panel (L1), for each 6-row strip:
//	        C[6×16] = strip·panel + β'·C[6×16]    (micro-kernel)
//
// where β' is β for the first KC block and 1 after it, so C is read (and
// scaled) once, while its tile is in registers; with β = 0 it is not read
// at all. Packing makes every micro-kernel load sequential whatever the
// transposes and strides, and folds α into A. Strips of fewer than 6 rows
// (the bottom edge) run R×16 kernels; tiles narrower than 16 columns (the
// right edge) are computed into a scratch tile and copied out.
//
// The micro-kernels (sgemm_amd64.s) keep the 6×16 tile of C in twelve
// 8-wide AVX registers and issue 12 fused multiply-adds per step of k from
// 2 loads of B and 6 broadcasts of A: 70–77 GFLOP/s with data in L1 on
// one core of the Xeon (Sapphire Rapids) this was developed on, whole
// products 45–70 (BenchmarkSgemm). The packing routines are
// assembly too (8×8 transposes for the transposed cases). They need AVX2
// and FMA (x86-64-v3), checked at start-up (internal/cpu). Elsewhere, with
// -tags purego, or when sgemmAVX2 is cleared, Go kernels with the same
// contracts run inside the same driver (2–3 GFLOP/s).
//
// Special shapes:
//   - m = 1 (greedy decoding, one row) and n = 1 are matrix–vector
//     products: streaming over B without packing it (sgemv.go). A large
//     one (Whisper's 51,864×384 output layer) splits its columns over
//     goroutines: reading B is the cost, and two cores read faster than one.
//   - Few rows (m ≤ sgemmInPlaceRows) with op(B) = B: B's panels are read
//     in place with its own row stride; packing them would cost about as
//     much as the product.
//   - Large products split their rows or columns over GOMAXPROCS
//     goroutines (sgemm_parallel.go).
//
// Packing buffers come from a free list, so steady-state calls allocate
// nothing.
func Gemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gemm(true, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// GemmSerial is Gemm on the calling goroutine alone, for callers that
// already run one product per core (the heads of an attention layer), so
// that large products do not also split over helper goroutines.
func GemmSerial(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gemm(false, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// gemm is Gemm, split over goroutines when parallel and the product is
// large enough.
func gemm(parallel, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 {
		return
	}
	checkGemm(transA, transB, m, n, k, len(a), lda, len(b), ldb, len(c), ldc)
	if k == 0 || alpha == 0 {
		scaleRows(m, n, beta, c, ldc)
		return
	}
	g := gemmArgs{
		transA: transA, transB: transB,
		m: m, n: n, k: k,
		alpha: alpha, a: a, lda: lda,
		b: b, ldb: ldb,
		beta: beta, c: c, ldc: ldc,
		avx2: sgemmAVX2,
		bf16: bf16Mode.Load(),
	}
	switch {
	case m == 1 && parallel && n*k >= sgemvParallelElems:
		g.run() // its chunks are column blocks, each a gemvRow (serial)
	case m == 1:
		g.gemvRow()
	case n == 1:
		g.gemvColumn()
	case parallel:
		g.run()
	default:
		s := getScratch()
		g.serial(s)
		putScratch(s)
	}
}

// gemmArgs is one product C = α·op(A)·op(B) + β·C, or a block of one.
type gemmArgs struct {
	transA, transB bool
	m, n, k        int
	alpha          float32
	a              []float32
	lda            int
	b              []float32
	ldb            int
	beta           float32
	c              []float32
	ldc            int
	avx2           bool      // run the assembly kernels
	packed         []float32 // op(B) packed by PackedB.Pack (b unused), or nil
	packedN        int       // with packed: the width of the packed op(B)
	packedCol      int       // with packed or packedBF: its column where this product's C starts
	bf16           bool      // bfloat16 operands, float32 sums (bf16.go); not for m = 1 or n = 1
	packedBF       []uint32  // op(B) packed in bfloat16 pairs by PackedB.Pack (b unused), or nil
}

// checkGemm panics unless the strides and lengths fit the shapes, as
// gonum's Sgemm does: they are programmer errors, and the assembly
// kernels must never read or write outside the slices. Strides are checked
// as in gonum (lda ≥ max(1, columns), also when k = 0), so that a call
// that passes here passes in the OpenBLAS build too; lengths only where
// the operand is read.
func checkGemm(transA, transB bool, m, n, k, la, lda, lb, ldb, lc, ldc int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("sgemm: Gemm: negative size m=%d n=%d k=%d", m, n, k))
	}
	rowsA, colsA := m, k
	if transA {
		rowsA, colsA = k, m
	}
	rowsB, colsB := k, n
	if transB {
		rowsB, colsB = n, k
	}
	checkMatrix("A", rowsA, colsA, la, lda, m > 0 && n > 0 && k > 0)
	checkMatrix("B", rowsB, colsB, lb, ldb, m > 0 && n > 0 && k > 0)
	checkMatrix("C", m, n, lc, ldc, true)
}

// checkMatrix checks a rows×cols row-major matrix of row stride ld stored
// in length elements; used says whether its elements are accessed.
func checkMatrix(name string, rows, cols, length, ld int, used bool) {
	if ld < max(1, cols) {
		panic(fmt.Sprintf("sgemm: Gemm: row stride of %s is %d, want ≥ %d (its columns)", name, ld, max(1, cols)))
	}
	if used && rows > 0 && cols > 0 && length < (rows-1)*ld+cols {
		panic(fmt.Sprintf("sgemm: Gemm: %s has %d elements, want ≥ %d for %d×%d with row stride %d",
			name, length, (rows-1)*ld+cols, rows, cols, ld))
	}
}

// scaleRows computes C = β·C for an m×n C of row stride ldc; β = 0 writes
// zeros without reading C.
func scaleRows(m, n int, beta float32, c []float32, ldc int) {
	if beta == 1 {
		return
	}
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}
