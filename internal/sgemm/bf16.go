package sgemm

import (
	"errors"
	"math"
	"sync/atomic"
)

// Mixed-precision products: bfloat16 operands, float32 sums.
//
// With SetBF16(true), Gemm and GemmPacked round α·op(A) and op(B) to
// bfloat16 (8 significant bits, float32's exponent range; round to
// nearest even, subnormals to zero as the instructions treat them) while
// packing them, and the micro-kernel multiplies pairs
// of them with VDPBF16PS, adding the exact products into float32
// accumulators: twice the multiply-adds per instruction of a float32 FMA,
// and on AMD Zen 4 (whose 512-bit units are 256 bits wide, double pumped)
// twice the arithmetic per cycle: 106 against 52 GFLOP/s in a register-only
// loop on one shared core here. This is the arithmetic of mixed-precision
// training on TPUs and of oneDNN's AVX-512 BF16 path; Kalamkar et al., "A
// Study of BFLOAT16 for Deep Learning Training" (2019) train LSTM and
// other networks with bfloat16 products to the float32 results.
//
// Each product then carries a relative error of up to 2⁻⁸ per operand
// (≈ 0.4 %), which averages out over a sum of k terms rather than adding
// up; sums, and everything outside the products (element-wise math,
// gradients' accumulation, the optimizer), stay float32. Gemm's
// matrix–vector products (m = 1 or n = 1) stay float32 too: they are
// memory-bound (GemmPacked follows its PackedB, whatever m).
//
// The packed layout: op(B) in panels of bf16NR = 32 columns, each pair of
// steps of k one 32-bit word per column, dst[t·32·kp + p·32 + j] =
// bf16(op(B)[2p][32t+j]) | bf16(op(B)[2p+1][32t+j])<<16 for kp = ⌈kk/2⌉
// pairs (an odd last step pairs with zero); α·op(A) in strips of bf16MR = 8
// rows, dst[s·8·kp + p·8 + r] the pair of row 8s+r. The kernel keeps an
// 8×32 tile in sixteen 16-wide registers.
const (
	bf16MR = 8
	bf16NR = 32
	bf16KC = 256 // steps of k per block; a panel of B is then 16 KiB, a strip of A 4 KiB
	bf16MC = 192
	bf16NC = 4096
)

// ErrNoBF16 is SetBF16's error where the CPU or the build has no
// bfloat16 kernel.
var ErrNoBF16 = errors.New("bfloat16 products need AVX-512 with AVX512_BF16 (Intel Cooper Lake or Sapphire Rapids and later, AMD Zen 4 and later) and the assembly kernels (not -tags purego)")

// bf16Mode is the switch SetBF16 sets.
var bf16Mode atomic.Bool

// SetBF16 switches every later product of this process with more than one
// row and column to bfloat16 operands and float32 sums (on = true) or back
// to float32 (on = false), and returns ErrNoBF16 when on is asked where
// the kernel cannot run. A PackedB keeps the precision it was packed in.
func SetBF16(on bool) error {
	if on && !bf16Available {
		return ErrNoBF16
	}
	bf16Mode.Store(on)
	return nil
}

// BF16 reports whether SetBF16 has switched products to bfloat16.
func BF16() bool { return bf16Mode.Load() }

// bf16Bits rounds x to bfloat16 (to nearest, ties to even) and returns its
// 16 bits, as VCVTNE2PS2BF16 does: a NaN stays a (quiet) NaN, values beyond
// bfloat16's largest round to ±Inf, and subnormals are ±0 (VDPBF16PS would
// read them as zeros anyway).
func bf16Bits(x float32) uint32 {
	u := math.Float32bits(x)
	switch {
	case u&0x7fffffff > 0x7f800000:
		return u>>16 | 0x40
	case u&0x7f800000 == 0:
		return u >> 16 & 0x8000
	}
	return (u + 0x7fff + (u >> 16 & 1)) >> 16
}

// bf16Pair packs two values of consecutive steps of k into one word, the
// earlier step in the low half, as VDPBF16PS pairs them.
func bf16Pair(lo, hi float32) uint32 { return bf16Bits(lo) | bf16Bits(hi)<<16 }

// bf16Float returns the float32 of 16 bfloat16 bits.
func bf16Float(bits uint32) float32 { return math.Float32frombits(bits << 16) }

// serialBF16 is serial for bfloat16 products: the same loops over blocks
// of C, k and A with bf16 packing, tiles and kernel.
func (g *gemmArgs) serialBF16(s *sgemmScratch) {
	off := 0 // of the block in g.packedBF
	for jc := 0; jc < g.n; jc += bf16NC {
		nn := min(bf16NC, g.n-jc)
		for pc := 0; pc < g.k; pc += bf16KC {
			kk := min(bf16KC, g.k-pc)
			kp := (kk + 1) / 2
			beta := g.beta
			if pc > 0 {
				beta = 1 // C already holds β·C plus the first blocks of the sum
			}
			var panels []uint32
			if g.packedBF != nil {
				panels = g.packedBF[off+g.packedCol*kp:]
				off += kp * roundUp(min(bf16NC, g.packedN-jc), bf16NR)
			} else {
				s.bb = growWords(s.bb, kp*roundUp(nn, bf16NR))
				g.packBBF16(s.bb, jc, nn, pc, kk)
				panels = s.bb
			}
			for ic := 0; ic < g.m; ic += bf16MC {
				mm := min(bf16MC, g.m-ic)
				s.ab = growWords(s.ab, roundUp(mm, bf16MR)*kp)
				g.packABF16(s.ab, ic, mm, pc, kk)
				g.macroBF16(s, panels, ic, mm, jc, nn, kp, beta)
			}
		}
	}
}

// macroBF16 computes C[ic:+mm, jc:+nn] = Ap·Bp + β·C[ic:+mm, jc:+nn] from
// the packed block of A in s.ab and the packed panels of B.
func (g *gemmArgs) macroBF16(s *sgemmScratch, panels []uint32, ic, mm, jc, nn, kp int, beta float32) {
	for jr := 0; jr < nn; jr += bf16NR {
		w := min(bf16NR, nn-jr)
		panel := panels[jr*kp:]
		for ir := 0; ir < mm; ir += bf16MR {
			rows := min(bf16MR, mm-ir)
			strip := s.ab[ir*kp:]
			c := g.c[(ic+ir)*g.ldc+jc+jr:]
			if w == bf16NR {
				bf16Tile(rows, kp, strip, panel, c, g.ldc, beta)
				continue
			}
			tile := s.tileBF[:]
			bf16Tile(rows, kp, strip, panel, tile, bf16NR, 0)
			for r := range rows {
				src := tile[r*bf16NR : r*bf16NR+w]
				dst := c[r*g.ldc : r*g.ldc+w]
				if beta == 0 {
					copy(dst, src)
					continue
				}
				for j, v := range src {
					dst[j] = v + beta*dst[j]
				}
			}
		}
	}
}

// packABF16 packs α·op(A)[ic:+mm, pc:+kk] into strips of bf16MR rows of
// bfloat16 pairs (layout above); rows past mm and the odd last step are
// zeros.
func (g *gemmArgs) packABF16(dst []uint32, ic, mm, pc, kk int) {
	const mr = bf16MR
	kp := (kk + 1) / 2
	full := kk / 2
	fullRows := mm &^ (mr - 1)
	if fullRows < mm || full < kp {
		clear(dst[fullRows*kp : roundUp(mm, mr)*kp])
		for ir := 0; ir < fullRows && full < kp; ir += mr {
			clear(dst[ir*kp+full*mr : (ir+mr)*kp])
		}
	}
	alpha := g.alpha
	if g.transA {
		// A is stored k×m: a pair of steps is two rows of A, whose
		// columns are the strips' rows.
		for p := range full {
			a0 := g.a[(pc+2*p)*g.lda+ic:][:mm]
			a1 := g.a[(pc+2*p+1)*g.lda+ic:][:mm]
			bf16Rows(fullRows, mr, a0, a1, alpha, dst[p*mr:], mr*kp)
			for r := fullRows; r < mm; r++ {
				dst[fullRows*kp+p*mr+r-fullRows] = bf16Pair(alpha*a0[r], alpha*a1[r])
			}
		}
		if full < kp {
			a0 := g.a[(pc+kk-1)*g.lda+ic:][:mm]
			for r, v := range a0 {
				dst[r/mr*mr*kp+full*mr+r%mr] = bf16Pair(alpha*v, 0)
			}
		}
		return
	}
	// A row holds its pairs side by side: eight rows at a time are
	// rounded and transposed into the strip, a row's pair every mr words.
	vec := full &^ 7
	for i := range mm {
		src := g.a[(ic+i)*g.lda+pc:][:kk]
		strip := dst[i/mr*mr*kp+i%mr:]
		p0 := 0
		if i%mr == 0 && i+mr <= mm {
			bf16PairsT8(vec, g.a[(ic+i)*g.lda+pc:], g.lda, alpha, strip, mr)
		}
		if i < fullRows {
			p0 = vec
		}
		for p := p0; p < full; p++ {
			strip[p*mr] = bf16Pair(alpha*src[2*p], alpha*src[2*p+1])
		}
		if full < kp {
			strip[full*mr] = bf16Pair(alpha*src[kk-1], 0)
		}
	}
}

// packBBF16 packs op(B)[pc:+kk, jc:+nn] into panels of bf16NR columns of
// bfloat16 pairs (layout above); columns past nn and the odd last step
// are zeros.
func (g *gemmArgs) packBBF16(dst []uint32, jc, nn, pc, kk int) {
	const nr = bf16NR
	kp := (kk + 1) / 2
	full := kk / 2
	fullCols := nn &^ (nr - 1)
	if fullCols < nn {
		clear(dst[fullCols*kp : roundUp(nn, nr)*kp])
	}
	if full < kp {
		for jr := 0; jr < fullCols; jr += nr {
			clear(dst[jr*kp+full*nr : (jr+nr)*kp])
		}
	}
	if g.transB {
		// B is stored n×k: column j of op(B) is a row of B, its pairs
		// side by side.
		// Eight columns at a time are rounded and transposed into the
		// panel.
		vec := full &^ 7
		full8 := nn &^ 7
		for j := range nn {
			src := g.b[(jc+j)*g.ldb+pc:][:kk]
			panel := dst[j/nr*nr*kp+j%nr:]
			p0 := 0
			if j%8 == 0 && j < full8 {
				bf16PairsT8(vec, g.b[(jc+j)*g.ldb+pc:], g.ldb, 1, panel, nr)
			}
			if j < full8 {
				p0 = vec
			}
			for p := p0; p < full; p++ {
				panel[p*nr] = bf16Pair(src[2*p], src[2*p+1])
			}
			if full < kp {
				panel[full*nr] = bf16Pair(src[kk-1], 0)
			}
		}
		return
	}
	// Two rows of B (a pair of steps) at a time, into every panel.
	for p := range full {
		b0 := g.b[(pc+2*p)*g.ldb+jc:][:nn]
		b1 := g.b[(pc+2*p+1)*g.ldb+jc:][:nn]
		bf16Rows(fullCols, nr, b0, b1, 1, dst[p*nr:], nr*kp)
		for j := fullCols; j < nn; j++ {
			dst[fullCols*kp+p*nr+j-fullCols] = bf16Pair(b0[j], b1[j])
		}
	}
	if full < kp {
		b0 := g.b[(pc+kk-1)*g.ldb+jc:][:nn]
		for j, v := range b0 {
			dst[j/nr*nr*kp+full*nr+j%nr] = bf16Pair(v, 0)
		}
	}
}

// bf16TileGo is the contract of the bf16 micro-kernels, in Go: C[r][j] =
// Σ_p a(r,2p)·b(2p,j) + a(r,2p+1)·b(2p+1,j) + β·C[r][j] for rows r < rows
// and the 32 columns j of the tile, from a strip (kp pairs × 8 rows) and a
// panel (kp pairs × 32 columns) in the packed layout; β = 0 does not read
// C. The products of two bfloat16 are exact in float32.
func bf16TileGo(rows, kp int, a, b []uint32, c []float32, ldc int, beta float32) {
	var acc [bf16MR][bf16NR]float32
	for p := range kp {
		bp := b[p*bf16NR : p*bf16NR+bf16NR]
		for r := range rows {
			w := a[p*bf16MR+r]
			a0, a1 := bf16Float(w&0xffff), bf16Float(w>>16)
			row := &acc[r]
			for j, v := range bp {
				row[j] += a0 * bf16Float(v&0xffff)
				row[j] += a1 * bf16Float(v>>16)
			}
		}
	}
	for r := range rows {
		dst := c[r*ldc : r*ldc+bf16NR]
		for j := range dst {
			if beta == 0 {
				dst[j] = acc[r][j]
			} else {
				dst[j] = acc[r][j] + beta*dst[j]
			}
		}
	}
}

// bf16RowsGo is bf16Rows (bf16_amd64.go) in Go: the reference of the
// vector packing, and the packing where the CPU has no AVX-512.
func bf16RowsGo(n, w int, x0, x1 []float32, alpha float32, dst []uint32, stride int) {
	for j := range n {
		dst[j/w*stride+j%w] = bf16Pair(alpha*x0[j], alpha*x1[j])
	}
}

// bf16PairsT8Go is bf16PairsT8 (bf16_amd64.go) in Go.
func bf16PairsT8Go(np int, x []float32, ldx int, alpha float32, dst []uint32, stride int) {
	for r := range 8 {
		for p := range np {
			dst[p*stride+r] = bf16Pair(alpha*x[r*ldx+2*p], alpha*x[r*ldx+2*p+1])
		}
	}
}

// growWords returns s resliced to n elements, reallocated if it is too
// short.
func growWords(s []uint32, n int) []uint32 {
	if cap(s) < n {
		return make([]uint32, n)
	}
	return s[:n]
}
