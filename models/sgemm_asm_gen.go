//go:build ignore

// sgemm_asm_gen writes sgemm_amd64.s: the R×16 micro-kernels (R = 1 … 6)
// from one template, then the matrix–vector and packing kernels as they
// are. Run it with go generate (see sgemm_amd64.go) after changing it.
package main

import (
	"fmt"
	"log"
	"os"
	"strings"
)

func main() {
	var b strings.Builder
	b.WriteString("//go:build !purego && !openblas\n\n#include \"textflag.h\"\n\n")
	b.WriteString(kernelDoc)
	for r := 6; r >= 1; r-- {
		kernel(&b, r)
	}
	b.WriteString(otherKernels)
	if err := os.WriteFile("sgemm_amd64.s", []byte(b.String()), 0o644); err != nil {
		log.Fatal(err)
	}
}

// kernel writes sgemmKernelRx16 for R rows.
func kernel(b *strings.Builder, R int) {
	w := func(format string, args ...any) { fmt.Fprintf(b, format, args...) }
	w(`
// func sgemmKernel%[1]dx16(k int, a, b *float32, ldb int, c *float32, ldc int, beta float32)
TEXT ·sgemmKernel%[1]dx16(SB), NOSPLIT, $0-52
	MOVQ k+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), R9
	SHLQ $2, R9             // R9 = ldb in bytes
	LEAQ (R9)(R9*2), R10    // R10 = 3·ldb
	MOVQ c+32(FP), DX
	MOVQ ldc+40(FP), R8
	SHLQ $2, R8             // R8 = ldc in bytes
	MOVQ DX, R11
`, R)
	for r := range R {
		if r == 0 {
			w("\tPREFETCHT0 (R11)\n\tPREFETCHT0 60(R11)     // the row's last element may be in the next line\n")
		} else {
			w("\tPREFETCHT0 (R11)\n\tPREFETCHT0 60(R11)\n")
		}
		if r < R-1 {
			w("\tADDQ R8, R11\n")
		}
	}
	for r := range 2 * R {
		w("\tVXORPS Y%[1]d, Y%[1]d, Y%[1]d\n", r)
	}
	step := func(b0, b1 string, aoff int) {
		w("\tVMOVUPS %s, Y12\n", b0)
		w("\tVMOVUPS %s, Y13\n", b1)
		for r := range R {
			t := 14 + r%2
			w("\tVBROADCASTSS %d(SI), Y%d\n", aoff+4*r, t)
			w("\tVFMADD231PS Y12, Y%d, Y%d\n", t, 2*r)
			w("\tVFMADD231PS Y13, Y%d, Y%d\n", t, 2*r+1)
		}
	}
	w(`	MOVQ CX, BX
	SHRQ $2, BX             // BX = k/4 unrolled iterations
	JZ   tail%[1]d

loop%[1]dx4:
`, R)
	step("(DI)", "32(DI)", 0)
	step("(DI)(R9*1)", "32(DI)(R9*1)", 24)
	step("(DI)(R9*2)", "32(DI)(R9*2)", 48)
	step("(DI)(R10*1)", "32(DI)(R10*1)", 72)
	w(`	ADDQ $96, SI
	LEAQ (DI)(R9*4), DI
	DECQ BX
	JNZ  loop%[1]dx4

tail%[1]d:
	ANDQ $3, CX
	JZ   store%[1]d

loop%[1]dx1:
`, R)
	step("(DI)", "32(DI)", 0)
	w(`	ADDQ $24, SI
	ADDQ R9, DI
	DECQ CX
	JNZ  loop%[1]dx1

store%[1]d:
	MOVL beta+48(FP), AX
	SHLL $1, AX             // drop the sign: ±0 → 0
	JZ   overwrite%[1]d
	VBROADCASTSS beta+48(FP), Y12
`, R)
	for r := range R {
		w("\tVFMADD231PS (DX), Y12, Y%[1]d\n\tVMOVUPS Y%[1]d, (DX)\n", 2*r)
		w("\tVFMADD231PS 32(DX), Y12, Y%[1]d\n\tVMOVUPS Y%[1]d, 32(DX)\n", 2*r+1)
		if r < R-1 {
			w("\tADDQ R8, DX\n")
		}
	}
	w("\tVZEROUPPER\n\tRET\n\noverwrite%d:\n", R)
	for r := range R {
		w("\tVMOVUPS Y%d, (DX)\n\tVMOVUPS Y%d, 32(DX)\n", 2*r, 2*r+1)
		if r < R-1 {
			w("\tADDQ R8, DX\n")
		}
	}
	w("\tVZEROUPPER\n\tRET\n")
}

const kernelDoc = `// The micro-kernels, one per number of rows R = 1 … 6:
//
// func sgemmKernelRx16(k int, a, b *float32, ldb int, c *float32, ldc int, beta float32)
//
// computes one R×16 tile of C: c[i][j] = Σ_p a[6p+i]·b[p·ldb+j] + beta·c[i][j]
// for i < R, j < 16, with c not read when beta is ±0. a is a packed strip
// (six values per step p, of which the first R are used), b a 16-wide panel
// with row stride ldb (packed: 16; read in place: B's own stride); ldb and
// ldc count elements; k ≥ 1.
//
// The rows of c are prefetched first: the loop takes long enough to hide
// the latency of bringing them in from L2 or L3 for the stores.
//
// Y0–Y11 hold the tile, row i in Y(2i) and Y(2i+1). Each step loads 16
// values of b into Y12–Y13, broadcasts the R values of a in turn into
// Y14/Y15 and issues 2R fused multiply-adds; the loop runs four steps per
// iteration.
`

// otherKernels are written by hand.
const otherKernels = `
// func sgemvNAVX2(k int, x, b *float32, ldb int, y *float32, n int)
//
// y[j] = Σ_{p<k} x[p]·b[p·ldb+j] for j < n, n a multiple of 8, k ≥ 1: one
// row vector times a k×n matrix, streaming over the rows of b. Columns go
// in blocks of 64 (eight accumulators, one load per multiply-add), then 8.
TEXT ·sgemvNAVX2(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	MOVQ x+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), R9
	SHLQ $2, R9
	MOVQ y+32(FP), DX
	MOVQ n+40(FP), BX

block64:
	CMPQ BX, $64
	JL   block8
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	MOVQ SI, R11
	MOVQ DI, R12
	MOVQ CX, R13

loop64:
	VBROADCASTSS (R11), Y15
	VFMADD231PS 0(R12), Y15, Y0
	VFMADD231PS 32(R12), Y15, Y1
	VFMADD231PS 64(R12), Y15, Y2
	VFMADD231PS 96(R12), Y15, Y3
	VFMADD231PS 128(R12), Y15, Y4
	VFMADD231PS 160(R12), Y15, Y5
	VFMADD231PS 192(R12), Y15, Y6
	VFMADD231PS 224(R12), Y15, Y7
	ADDQ $4, R11
	ADDQ R9, R12
	DECQ R13
	JNZ  loop64
	VMOVUPS Y0, 0(DX)
	VMOVUPS Y1, 32(DX)
	VMOVUPS Y2, 64(DX)
	VMOVUPS Y3, 96(DX)
	VMOVUPS Y4, 128(DX)
	VMOVUPS Y5, 160(DX)
	VMOVUPS Y6, 192(DX)
	VMOVUPS Y7, 224(DX)
	ADDQ $256, DI
	ADDQ $256, DX
	SUBQ $64, BX
	JMP  block64

block8:
	CMPQ BX, $8
	JL   done
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	MOVQ SI, R11
	MOVQ DI, R12
	MOVQ CX, R13
	SHRQ $1, R13            // two rows per iteration, two accumulators
	JZ   odd8

loop8:
	VBROADCASTSS (R11), Y14
	VBROADCASTSS 4(R11), Y15
	VFMADD231PS (R12), Y14, Y0
	VFMADD231PS (R12)(R9*1), Y15, Y1
	ADDQ $8, R11
	LEAQ (R12)(R9*2), R12
	DECQ R13
	JNZ  loop8

odd8:
	TESTQ $1, CX
	JZ   store8
	VBROADCASTSS (R11), Y14
	VFMADD231PS (R12), Y14, Y0

store8:
	VADDPS Y1, Y0, Y0
	VMOVUPS Y0, (DX)
	ADDQ $32, DI
	ADDQ $32, DX
	SUBQ $8, BX
	JMP  block8

done:
	VZEROUPPER
	RET

// func sgemvTAVX2(k int, x, b *float32, ldb int, y *float32, n int)
//
// y[j] = Σ_{p<k} x[p]·b[j·ldb+p] for j < n, k a multiple of 8: dot
// products of x with n rows of b. Four rows at a time share each load of
// x; 16 steps per iteration keep eight accumulators in flight.
TEXT ·sgemvTAVX2(SB), NOSPLIT, $0-48
	MOVQ k+0(FP), CX
	SHLQ $2, CX             // CX = k in bytes
	MOVQ x+8(FP), SI
	MOVQ b+16(FP), DI
	MOVQ ldb+24(FP), R9
	SHLQ $2, R9
	MOVQ y+32(FP), DX
	MOVQ n+40(FP), BX
	MOVQ CX, R10
	ANDQ $-64, R10          // R10 = bytes covered 16 at a time

rows4:
	CMPQ BX, $4
	JL   rows1
	MOVQ DI, R11
	LEAQ (DI)(R9*1), R12
	LEAQ (DI)(R9*2), R13
	LEAQ (R12)(R9*2), R8
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	VXORPS Y4, Y4, Y4
	VXORPS Y5, Y5, Y5
	VXORPS Y6, Y6, Y6
	VXORPS Y7, Y7, Y7
	XORQ AX, AX
	CMPQ R10, $0
	JE   tail4

loop4x16:
	VMOVUPS (SI)(AX*1), Y8
	VMOVUPS 32(SI)(AX*1), Y9
	VFMADD231PS (R11)(AX*1), Y8, Y0
	VFMADD231PS (R12)(AX*1), Y8, Y1
	VFMADD231PS (R13)(AX*1), Y8, Y2
	VFMADD231PS (R8)(AX*1), Y8, Y3
	VFMADD231PS 32(R11)(AX*1), Y9, Y4
	VFMADD231PS 32(R12)(AX*1), Y9, Y5
	VFMADD231PS 32(R13)(AX*1), Y9, Y6
	VFMADD231PS 32(R8)(AX*1), Y9, Y7
	ADDQ $64, AX
	CMPQ AX, R10
	JL   loop4x16

tail4:
	CMPQ AX, CX
	JGE  reduce4
	VMOVUPS (SI)(AX*1), Y8
	VFMADD231PS (R11)(AX*1), Y8, Y0
	VFMADD231PS (R12)(AX*1), Y8, Y1
	VFMADD231PS (R13)(AX*1), Y8, Y2
	VFMADD231PS (R8)(AX*1), Y8, Y3

reduce4:
	VADDPS Y4, Y0, Y0
	VADDPS Y5, Y1, Y1
	VADDPS Y6, Y2, Y2
	VADDPS Y7, Y3, Y3
	VHADDPS Y1, Y0, Y0      // Y0 = [r0 r0 r1 r1 | r0 r0 r1 r1] partial sums
	VHADDPS Y3, Y2, Y2
	VHADDPS Y2, Y0, Y0      // Y0 = [r0 r1 r2 r3 | r0 r1 r2 r3]
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VMOVUPS X0, (DX)
	LEAQ (DI)(R9*4), DI
	ADDQ $16, DX
	SUBQ $4, BX
	JMP  rows4

rows1:
	TESTQ BX, BX
	JZ   done1
	VXORPS Y0, Y0, Y0
	VXORPS Y4, Y4, Y4
	XORQ AX, AX
	CMPQ R10, $0
	JE   tail1

loop1x16:
	VMOVUPS (DI)(AX*1), Y8
	VMOVUPS 32(DI)(AX*1), Y9
	VFMADD231PS (SI)(AX*1), Y8, Y0
	VFMADD231PS 32(SI)(AX*1), Y9, Y4
	ADDQ $64, AX
	CMPQ AX, R10
	JL   loop1x16

tail1:
	CMPQ AX, CX
	JGE  reduce1
	VMOVUPS (DI)(AX*1), Y8
	VFMADD231PS (SI)(AX*1), Y8, Y0

reduce1:
	VADDPS Y4, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS X1, X0, X0
	VHADDPS X0, X0, X0
	VHADDPS X0, X0, X0
	VMOVSS X0, (DX)
	ADDQ R9, DI
	ADDQ $4, DX
	DECQ BX
	JMP  rows1

done1:
	VZEROUPPER
	RET

// Packing kernels (see sgemm_pack.go for the layouts).

// Lanes 0–5 of a YMM register: the six rows of a strip of A.
DATA sgemmMask6<>+0(SB)/4, $0xffffffff
DATA sgemmMask6<>+4(SB)/4, $0xffffffff
DATA sgemmMask6<>+8(SB)/4, $0xffffffff
DATA sgemmMask6<>+12(SB)/4, $0xffffffff
DATA sgemmMask6<>+16(SB)/4, $0xffffffff
DATA sgemmMask6<>+20(SB)/4, $0xffffffff
DATA sgemmMask6<>+24(SB)/4, $0
DATA sgemmMask6<>+28(SB)/4, $0
GLOBL sgemmMask6<>(SB), RODATA|NOPTR, $32

// func sgemmPackBNAVX2(kk int, b *float32, ldb int, panels int, dst *float32)
//
// dst[t·16·kk + p·16 + j] = b[p·ldb + 16t + j] for p < kk, t < panels,
// j < 16: rows of B, not transposed, cut into 16-wide panels. kk ≥ 1,
// panels ≥ 1.
TEXT ·sgemmPackBNAVX2(SB), NOSPLIT, $0-40
	MOVQ kk+0(FP), CX
	MOVQ b+8(FP), SI
	MOVQ ldb+16(FP), R9
	SHLQ $2, R9
	MOVQ panels+24(FP), BX
	MOVQ dst+32(FP), DI
	MOVQ CX, R10
	SHLQ $6, R10            // R10 = 16·kk floats in bytes: one panel

packBNrow:
	MOVQ SI, R11
	MOVQ DI, R12
	MOVQ BX, R13

packBNpanel:
	VMOVUPS (R11), Y0
	VMOVUPS 32(R11), Y1
	VMOVUPS Y0, (R12)
	VMOVUPS Y1, 32(R12)
	ADDQ $64, R11
	ADDQ R10, R12
	DECQ R13
	JNZ  packBNpanel
	ADDQ R9, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  packBNrow
	VZEROUPPER
	RET

// func sgemmPackATAVX2(kk int, a *float32, lda int, alpha float32, dst *float32)
//
// dst[6p + r] = alpha·a[p·lda + r] for p < kk, r < 6: a strip of six rows of
// op(A) = Aᵀ, six consecutive values of each row of the stored A. Masked
// loads and stores touch exactly those six. kk ≥ 1.
TEXT ·sgemmPackATAVX2(SB), NOSPLIT, $0-40
	MOVQ kk+0(FP), CX
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R9
	SHLQ $2, R9
	VBROADCASTSS alpha+24(FP), Y14
	MOVQ dst+32(FP), DI
	VMOVUPS sgemmMask6<>(SB), Y15

packATloop:
	VMASKMOVPS (SI), Y15, Y0
	VMULPS Y14, Y0, Y0
	VMASKMOVPS Y0, Y15, (DI)
	ADDQ R9, SI
	ADDQ $24, DI
	DECQ CX
	JNZ  packATloop
	VZEROUPPER
	RET

// func sgemmPackANAVX2(kk int, a *float32, lda int, alpha float32, dst *float32)
//
// dst[6p + r] = alpha·a[r·lda + p] for p < kk, r < 6: a strip of six rows
// of A, not transposed, interleaved. kk is a multiple of 8. Eight values of
// each row are loaded (Y0–Y5, rows 6 and 7 being zero) and transposed 8×8
// with unpacks, shuffles and lane permutes into eight columns, each stored
// with a mask as six values.
TEXT ·sgemmPackANAVX2(SB), NOSPLIT, $0-40
	MOVQ kk+0(FP), CX
	SHRQ $3, CX
	JZ   packANdone
	MOVQ a+8(FP), SI
	MOVQ lda+16(FP), R9
	SHLQ $2, R9
	LEAQ (SI)(R9*2), R10
	ADDQ R9, R10            // R10 = row 3
	VBROADCASTSS alpha+24(FP), Y14
	MOVQ dst+32(FP), DI
	VMOVUPS sgemmMask6<>(SB), Y13
	VXORPS Y15, Y15, Y15

packANloop:
	VMULPS (SI), Y14, Y0
	VMULPS (SI)(R9*1), Y14, Y1
	VMULPS (SI)(R9*2), Y14, Y2
	VMULPS (R10), Y14, Y3
	VMULPS (R10)(R9*1), Y14, Y4
	VMULPS (R10)(R9*2), Y14, Y5
	VUNPCKLPS Y1, Y0, Y6    // [r0 r1 r0 r1]: columns 0 1 | 4 5
	VUNPCKHPS Y1, Y0, Y7    // columns 2 3 | 6 7
	VUNPCKLPS Y3, Y2, Y8
	VUNPCKHPS Y3, Y2, Y9
	VUNPCKLPS Y5, Y4, Y10
	VUNPCKHPS Y5, Y4, Y11
	VSHUFPS $0x44, Y8, Y6, Y0    // rows 0–3 of columns 0 | 4
	VSHUFPS $0xEE, Y8, Y6, Y1    // columns 1 | 5
	VSHUFPS $0x44, Y9, Y7, Y2    // columns 2 | 6
	VSHUFPS $0xEE, Y9, Y7, Y3    // columns 3 | 7
	VSHUFPS $0x44, Y15, Y10, Y4  // rows 4–7 of columns 0 | 4
	VSHUFPS $0xEE, Y15, Y10, Y5
	VSHUFPS $0x44, Y15, Y11, Y6
	VSHUFPS $0xEE, Y15, Y11, Y7
	VPERM2F128 $0x20, Y4, Y0, Y8
	VMASKMOVPS Y8, Y13, (DI)
	VPERM2F128 $0x20, Y5, Y1, Y8
	VMASKMOVPS Y8, Y13, 24(DI)
	VPERM2F128 $0x20, Y6, Y2, Y8
	VMASKMOVPS Y8, Y13, 48(DI)
	VPERM2F128 $0x20, Y7, Y3, Y8
	VMASKMOVPS Y8, Y13, 72(DI)
	VPERM2F128 $0x31, Y4, Y0, Y8
	VMASKMOVPS Y8, Y13, 96(DI)
	VPERM2F128 $0x31, Y5, Y1, Y8
	VMASKMOVPS Y8, Y13, 120(DI)
	VPERM2F128 $0x31, Y6, Y2, Y8
	VMASKMOVPS Y8, Y13, 144(DI)
	VPERM2F128 $0x31, Y7, Y3, Y8
	VMASKMOVPS Y8, Y13, 168(DI)
	ADDQ $32, SI
	ADDQ $32, R10
	ADDQ $192, DI
	DECQ CX
	JNZ  packANloop

packANdone:
	VZEROUPPER
	RET

// func sgemmPackBTAVX2(kk int, b *float32, ldb int, dst *float32)
//
// dst[16p + j] = b[j·ldb + p] for p < kk, j < 16: one 16-wide panel of
// op(B) = Bᵀ, from 16 rows of the stored B. kk is a multiple of 8. Each
// iteration transposes two 8×8 blocks (rows 0–7, then 8–15, over eight
// steps p) with unpacks, shuffles and lane permutes.
TEXT ·sgemmPackBTAVX2(SB), NOSPLIT, $0-32
	MOVQ kk+0(FP), CX
	SHRQ $3, CX
	JZ   packBTdone
	MOVQ b+8(FP), SI
	MOVQ ldb+16(FP), R9
	SHLQ $2, R9
	LEAQ (R9)(R9*2), R10    // R10 = 3·ldb
	MOVQ dst+24(FP), DI

packBTloop:
	MOVQ SI, R12            // row 0 of the half
	MOVQ DI, R13            // column 0 of the half in dst
	MOVQ $2, BX

packBThalf:
	LEAQ (R12)(R9*4), R11   // row 4
	VMOVUPS (R12), Y0
	VMOVUPS (R12)(R9*1), Y1
	VMOVUPS (R12)(R9*2), Y2
	VMOVUPS (R12)(R10*1), Y3
	VMOVUPS (R11), Y4
	VMOVUPS (R11)(R9*1), Y5
	VMOVUPS (R11)(R9*2), Y6
	VMOVUPS (R11)(R10*1), Y7
	VUNPCKLPS Y1, Y0, Y8
	VUNPCKHPS Y1, Y0, Y9
	VUNPCKLPS Y3, Y2, Y10
	VUNPCKHPS Y3, Y2, Y11
	VUNPCKLPS Y5, Y4, Y12
	VUNPCKHPS Y5, Y4, Y13
	VUNPCKLPS Y7, Y6, Y14
	VUNPCKHPS Y7, Y6, Y15
	VSHUFPS $0x44, Y10, Y8, Y0
	VSHUFPS $0xEE, Y10, Y8, Y1
	VSHUFPS $0x44, Y11, Y9, Y2
	VSHUFPS $0xEE, Y11, Y9, Y3
	VSHUFPS $0x44, Y14, Y12, Y4
	VSHUFPS $0xEE, Y14, Y12, Y5
	VSHUFPS $0x44, Y15, Y13, Y6
	VSHUFPS $0xEE, Y15, Y13, Y7
	VPERM2F128 $0x20, Y4, Y0, Y8
	VMOVUPS Y8, (R13)
	VPERM2F128 $0x20, Y5, Y1, Y8
	VMOVUPS Y8, 64(R13)
	VPERM2F128 $0x20, Y6, Y2, Y8
	VMOVUPS Y8, 128(R13)
	VPERM2F128 $0x20, Y7, Y3, Y8
	VMOVUPS Y8, 192(R13)
	VPERM2F128 $0x31, Y4, Y0, Y8
	VMOVUPS Y8, 256(R13)
	VPERM2F128 $0x31, Y5, Y1, Y8
	VMOVUPS Y8, 320(R13)
	VPERM2F128 $0x31, Y6, Y2, Y8
	VMOVUPS Y8, 384(R13)
	VPERM2F128 $0x31, Y7, Y3, Y8
	VMOVUPS Y8, 448(R13)
	LEAQ (R11)(R9*4), R12   // rows 8–15
	ADDQ $32, R13
	DECQ BX
	JNZ  packBThalf
	ADDQ $32, SI            // next eight steps p
	ADDQ $512, DI
	DECQ CX
	JNZ  packBTloop

packBTdone:
	VZEROUPPER
	RET
`
