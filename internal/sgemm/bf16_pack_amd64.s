//go:build !purego

#include "textflag.h"

// Packing for the bfloat16 product (bf16.go): rounding with
// VCVTNE2PS2BF16 (AVX512_BF16: to nearest even, subnormal inputs as zero,
// a NaN stays a quiet NaN, as bf16Bits does), which the Go assembler does
// not know: its BYTE lines encode the instruction named in their comment
// (encodings checked against llvm-mc).

// The word interleave of two rows converted by one VCVTNE2PS2BF16 (ymm):
// bfloat16 j of x0 sits at j, of x1 at 8 + j; word j takes both.
DATA bf16interleave<>+0(SB)/8, $0x0009000100080000
DATA bf16interleave<>+8(SB)/8, $0x000b0003000a0002
DATA bf16interleave<>+16(SB)/8, $0x000d0005000c0004
DATA bf16interleave<>+24(SB)/8, $0x000f0007000e0006
GLOBL bf16interleave<>(SB), RODATA|NOPTR, $32

// func bf16PackRows(n, w int, x0, x1 *float32, alpha float32, dst *uint32, dstStride int)
//
// dst[(j/w)·dstStride + j%w] = bf16(α·x0[j]) | bf16(α·x1[j])<<16 for j < n:
// two rows (two steps of k) into pairs, in chunks of w words (w and n
// multiples of 8, n of w) dstStride words apart.
TEXT ·bf16PackRows(SB), NOSPLIT, $0-56
	MOVQ n+0(FP), CX
	MOVQ w+8(FP), R8
	MOVQ x0+16(FP), SI
	MOVQ x1+24(FP), BX
	VBROADCASTSS alpha+32(FP), Y31
	MOVQ dst+40(FP), DI
	MOVQ dstStride+48(FP), R9
	SHLQ $2, R9
	VMOVDQU32 bf16interleave<>(SB), Y30
	TESTQ CX, CX
	JEQ rowsdone

rowschunk:
	MOVQ DI, R10
	MOVQ R8, DX

rowsloop:
	VMULPS (SI), Y31, Y16
	VMULPS (BX), Y31, Y17
	BYTE $0x62; BYTE $0xb2; BYTE $0x77; BYTE $0x20; BYTE $0x72; BYTE $0xc0 // VCVTNE2PS2BF16 Y16, Y17, Y0: x0 low, x1 high
	VPERMW Y0, Y30, Y1
	VMOVDQU Y1, (R10)
	ADDQ $32, SI
	ADDQ $32, BX
	ADDQ $32, R10
	SUBQ $8, CX
	SUBQ $8, DX
	JNE rowsloop
	ADDQ R9, DI
	TESTQ CX, CX
	JNE rowschunk

rowsdone:
	VZEROUPPER
	RET

// func bf16PackPairsT8(np int, x *float32, ldx int, alpha float32, dst *uint32, dstStride int)
//
// dst[p·dstStride + r] = bf16(α·x[r·ldx + 2p]) | bf16(α·x[r·ldx + 2p+1])<<16
// for r < 8 and p < np (a multiple of 8): eight rows whose pairs of steps
// lie side by side, transposed into eight words per pair, eight pairs at a
// time (an 8×8 transpose of words as in sgemm's packing).
TEXT ·bf16PackPairsT8(SB), NOSPLIT, $0-48
	MOVQ np+0(FP), CX
	SHRQ $3, CX
	JZ   pairsdone
	MOVQ x+8(FP), SI
	MOVQ ldx+16(FP), R9
	SHLQ $2, R9
	LEAQ (R9)(R9*2), R10    // R10 = 3·ldx
	VBROADCASTSS alpha+24(FP), Z31
	MOVQ dst+32(FP), DI
	MOVQ dstStride+40(FP), R12
	SHLQ $2, R12            // R12 = dstStride in bytes

pairsloop:
	LEAQ (SI)(R9*4), R11    // row 4
	VMULPS (SI), Z31, Z16
	VMULPS (SI)(R9*1), Z31, Z17
	VMULPS (SI)(R9*2), Z31, Z18
	VMULPS (SI)(R10*1), Z31, Z19
	VMULPS (R11), Z31, Z20
	VMULPS (R11)(R9*1), Z31, Z21
	VMULPS (R11)(R9*2), Z31, Z22
	VMULPS (R11)(R10*1), Z31, Z23
	BYTE $0x62; BYTE $0xb2; BYTE $0x77; BYTE $0x40; BYTE $0x72; BYTE $0xc0 // VCVTNE2PS2BF16 Z16, Z17, Z0: rows 0 | 1
	BYTE $0x62; BYTE $0xb2; BYTE $0x67; BYTE $0x40; BYTE $0x72; BYTE $0xca // VCVTNE2PS2BF16 Z18, Z19, Z1: rows 2 | 3
	BYTE $0x62; BYTE $0xb2; BYTE $0x57; BYTE $0x40; BYTE $0x72; BYTE $0xd4 // VCVTNE2PS2BF16 Z20, Z21, Z2: rows 4 | 5
	BYTE $0x62; BYTE $0xb2; BYTE $0x47; BYTE $0x40; BYTE $0x72; BYTE $0xde // VCVTNE2PS2BF16 Z22, Z23, Z3: rows 6 | 7
	VEXTRACTI64X4 $1, Z0, Y8  // row 1
	VEXTRACTI64X4 $1, Z1, Y9  // row 3
	VEXTRACTI64X4 $1, Z2, Y10 // row 5
	VEXTRACTI64X4 $1, Z3, Y11 // row 7
	VUNPCKLPS Y8, Y0, Y4
	VUNPCKHPS Y8, Y0, Y5
	VUNPCKLPS Y9, Y1, Y6
	VUNPCKHPS Y9, Y1, Y7
	VUNPCKLPS Y10, Y2, Y12
	VUNPCKHPS Y10, Y2, Y13
	VUNPCKLPS Y11, Y3, Y14
	VUNPCKHPS Y11, Y3, Y15
	VSHUFPS $0x44, Y6, Y4, Y0
	VSHUFPS $0xEE, Y6, Y4, Y8
	VSHUFPS $0x44, Y7, Y5, Y1
	VSHUFPS $0xEE, Y7, Y5, Y9
	VSHUFPS $0x44, Y14, Y12, Y2
	VSHUFPS $0xEE, Y14, Y12, Y10
	VSHUFPS $0x44, Y15, Y13, Y3
	VSHUFPS $0xEE, Y15, Y13, Y11
	MOVQ DI, R13
	VPERM2F128 $0x20, Y2, Y0, Y4
	VMOVUPS Y4, (R13)
	ADDQ R12, R13
	VPERM2F128 $0x20, Y10, Y8, Y4
	VMOVUPS Y4, (R13)
	ADDQ R12, R13
	VPERM2F128 $0x20, Y3, Y1, Y4
	VMOVUPS Y4, (R13)
	ADDQ R12, R13
	VPERM2F128 $0x20, Y11, Y9, Y4
	VMOVUPS Y4, (R13)
	ADDQ R12, R13
	VPERM2F128 $0x31, Y2, Y0, Y4
	VMOVUPS Y4, (R13)
	ADDQ R12, R13
	VPERM2F128 $0x31, Y10, Y8, Y4
	VMOVUPS Y4, (R13)
	ADDQ R12, R13
	VPERM2F128 $0x31, Y3, Y1, Y4
	VMOVUPS Y4, (R13)
	ADDQ R12, R13
	VPERM2F128 $0x31, Y11, Y9, Y4
	VMOVUPS Y4, (R13)
	ADDQ R12, R13
	MOVQ R13, DI            // eight pairs on
	ADDQ $64, SI
	DECQ CX
	JNZ  pairsloop

pairsdone:
	VZEROUPPER
	RET
